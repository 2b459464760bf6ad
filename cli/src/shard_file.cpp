// Shard files and their merge (shard_file.hpp).
#include "shard_file.hpp"

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/json_limits.hpp>
#include <nsh/limits.hpp>
#include <nsh/properties/runner.hpp>
#include <nsh/properties/verdict_io.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

namespace nsh::cli {
namespace {

constexpr const char* kFormat = "nsh-check-shard";
constexpr int kVersion = 2;

bool parse_int(const std::string& text, int& value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end;
}

template <class T>
T shard_field(const nlohmann::json& j, const char* name, const std::string& where) {
  if (!j.contains(name)) throw InputError(where + ": " + name, "missing");
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(where + ": " + name,
                     "has the wrong type: " + limits::describe_json(j.at(name)));
  }
}

}  // namespace

std::pair<int, int> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  int index = 0, count = 0;
  if (slash == std::string::npos || !parse_int(text.substr(0, slash), index) ||
      !parse_int(text.substr(slash + 1), count))
    throw InputError("--shard", "'" + text + "' is not I/N with integers I and N");
  if (count < 1) throw InputError("--shard", "'" + text + "': N must be >= 1");
  if (index < 0 || index >= count)
    throw InputError("--shard", "'" + text + "': I must satisfy 0 <= I < N");
  return {index, count};
}

void write_shard_file(const std::string& path, const ShardFile& f) {
  nlohmann::json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["shard"] = f.shard;
  j["shards"] = f.shards;
  j["seed"] = f.seed;
  j["cases"] = f.cases;
  j["schemes"] = f.schemes;
  j["properties"] = f.properties;
  j["restitution"] = f.restitution;
  j["force"] = f.force;
  j["verdicts"] = nlohmann::json::array();
  for (const auto& v : f.verdicts) j["verdicts"].push_back(properties::to_json(v));
  std::ofstream out(path);
  if (!out) throw InputError("--out", "cannot write '" + path + "'");
  out << j.dump(2) << "\n";
  if (!out) throw InputError("--out", "writing '" + path + "' failed");
}

ShardFile read_shard_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot read the shard file");
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  if (!ec) limits::check_file_size(bytes, path, path);
  nlohmann::json j;
  try {
    // The depth is bounded while parsing (the callback sees every container open), so no
    // recursive walk of the document can exhaust the stack afterwards.
    j = nlohmann::json::parse(
        in, [&path](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
          if (event == nlohmann::json::parse_event_t::object_start ||
              event == nlohmann::json::parse_event_t::array_start)
            limits::check_json_depth(static_cast<std::size_t>(depth) + 1, path);
          return true;
        });
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object()) throw InputError(path, "not a shard file (not a JSON object)");
  if (!j.contains("format") || j.at("format") != kFormat)
    throw InputError(path + ": format",
                     std::string("not '") + kFormat + "' (write it with nsh check --out)");
  if (shard_field<int>(j, "version", path) != kVersion)
    throw InputError(path + ": version",
                     fmt::format("{} is not supported (expected {}; rerun the shard with this nsh)",
                                 limits::describe_json(j.at("version")), kVersion));
  ShardFile f;
  f.shard = shard_field<int>(j, "shard", path);
  f.shards = shard_field<int>(j, "shards", path);
  if (f.shards < 1 || f.shard < 0 || f.shard >= f.shards)
    throw InputError(path + ": shard", fmt::format("{}/{} is not 0 <= I < N", f.shard, f.shards));
  f.seed = shard_field<std::uint64_t>(j, "seed", path);
  f.cases = shard_field<int>(j, "cases", path);
  f.schemes = shard_field<std::vector<std::string>>(j, "schemes", path);
  f.properties = shard_field<std::vector<std::string>>(j, "properties", path);
  f.restitution = shard_field<std::string>(j, "restitution", path);
  f.force = shard_field<bool>(j, "force", path);
  const auto verdicts = shard_field<nlohmann::json>(j, "verdicts", path);
  if (!verdicts.is_array()) throw InputError(path + ": verdicts", "not an array");
  for (std::size_t i = 0; i < verdicts.size(); ++i)
    f.verdicts.push_back(
        properties::from_json(verdicts[i], fmt::format("{}: verdicts[{}]", path, i)));
  return f;
}

std::vector<properties::Verdict> merge_shards(
    std::vector<std::pair<std::string, ShardFile>> files) {
  using properties::Outcome;
  using properties::Verdict;
  if (files.empty()) throw InputError("shard files", "none given");
  // Plain references, not structured bindings: clang 14 cannot capture one in a lambda.
  const std::string& first_path = files.front().first;
  const ShardFile& first = files.front().second;
  // Every file must come from the same run: name the first field that differs.
  for (const auto& file : files) {
    const std::string& path = file.first;
    const ShardFile& f = file.second;
    auto differ = [&](const char* name, const std::string& a, const std::string& b) {
      if (a != b)
        throw InputError(name,
                         fmt::format("the shards come from different runs: {} in {}, {} in {}", a,
                                     first_path, b, path));
    };
    differ("shards", std::to_string(first.shards), std::to_string(f.shards));
    differ("seed", std::to_string(first.seed), std::to_string(f.seed));
    differ("cases", std::to_string(first.cases), std::to_string(f.cases));
    differ("schemes", join(first.schemes), join(f.schemes));
    differ("properties", join(first.properties), join(f.properties));
    differ("restitution", first.restitution.empty() ? "(none)" : first.restitution,
           f.restitution.empty() ? "(none)" : f.restitution);
    differ("force", first.force ? "true" : "false", f.force ? "true" : "false");
  }
  std::map<int, std::string> seen;
  for (const auto& [path, f] : files) {
    const auto [it, fresh] = seen.emplace(f.shard, path);
    if (!fresh)
      throw InputError("shard", fmt::format("shard {}/{} given twice: {} and {}", f.shard, f.shards,
                                            it->second, path));
  }
  for (int i = 0; i < first.shards; ++i)
    if (!seen.count(i))
      throw InputError("shard", fmt::format("shard {}/{} is missing", i, first.shards));
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.second.shard < b.second.shard; });

  const ShardFile& zero = files.front().second;
  std::vector<Verdict> merged;
  for (std::size_t r = 0; r < zero.verdicts.size(); ++r) {
    Verdict m = zero.verdicts[r];
    const Verdict* earliest = m.outcome == Outcome::fail ? &zero.verdicts[r] : nullptr;
    for (std::size_t s = 1; s < files.size(); ++s) {
      const auto& [path, f] = files[s];
      if (f.verdicts.size() != zero.verdicts.size())
        throw InputError("verdicts",
                         fmt::format("{} has {} verdict rows, {} has {}", files.front().first,
                                     zero.verdicts.size(), path, f.verdicts.size()));
      const Verdict& v = f.verdicts[r];
      if (v.scheme != m.scheme || v.property != m.property)
        throw InputError("verdicts",
                         fmt::format("row {} is {} / {} in {} but {} / {} in {}", r, m.scheme,
                                     m.property, files.front().first, v.scheme, v.property, path));
      const bool skipped_here =
          v.outcome == Outcome::not_claimed || v.outcome == Outcome::not_applicable;
      const bool skipped_zero =
          m.outcome == Outcome::not_claimed || m.outcome == Outcome::not_applicable;
      if (skipped_here != skipped_zero || v.whole != m.whole ||
          (skipped_here && v.outcome != m.outcome))
        throw InputError("verdicts",
                         fmt::format("{} / {} is '{}' in {} but '{}' in {}", m.scheme, m.property,
                                     properties::to_string(zero.verdicts[r].outcome),
                                     files.front().first, properties::to_string(v.outcome), path));
      if (m.whole || skipped_here) continue;  // not split: shard 0's verdict stands
      m.cases_run += v.cases_run;
      properties::add_coverage(m.coverage, v.coverage);
      if (v.outcome == Outcome::fail) {
        // The unsharded run stops at its first failing case; a failure without a case index
        // (a rapidcheck error) sorts last.
        const long mine = v.failing_case.value_or(std::numeric_limits<long>::max());
        const long best = earliest
                              ? earliest->failing_case.value_or(std::numeric_limits<long>::max())
                              : std::numeric_limits<long>::max();
        if (!earliest || mine < best) earliest = &v;
      }
    }
    if (earliest) {
      m.outcome = Outcome::fail;
      m.note = earliest->note;
      m.statement = earliest->statement;
      m.counterexample = earliest->counterexample;
      m.failing_case = earliest->failing_case;
    } else if (m.outcome == Outcome::pass && !m.whole) {
      // What no shard could judge alone: nothing evaluated, a coverage minimum missed.
      if (std::string failure = properties::whole_run_failure(m.property, m.cases_run, m.coverage);
          !failure.empty()) {
        m.outcome = Outcome::fail;
        m.note = std::move(failure);
      }
    }
    merged.push_back(std::move(m));
  }
  return merged;
}

}  // namespace nsh::cli
