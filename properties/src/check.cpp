#include <nsh/error.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/runner.hpp>

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace nsh::properties {

namespace {

// Each outcome's display text (the table's) and identifier (JSON, CSV, the report's classes).
struct OutcomeName {
  Outcome outcome;
  const char* text;
  const char* key;
};
constexpr OutcomeName outcome_names[] = {{Outcome::pass, "pass", "pass"},
                                         {Outcome::fail, "fail", "fail"},
                                         {Outcome::not_claimed, "not claimed", "not_claimed"},
                                         {Outcome::not_applicable, "n/a", "not_applicable"}};

}  // namespace

const char* to_string(Outcome outcome) {
  for (const auto& name : outcome_names)
    if (name.outcome == outcome) return name.text;
  return "?";
}

const char* outcome_key(Outcome outcome) {
  for (const auto& name : outcome_names)
    if (name.outcome == outcome) return name.key;
  return "unknown";
}

std::string shard_suffix(const CheckOptions& options) {
  if (options.shards <= 1 || options.share) return {};
  return " --shard " + std::to_string(options.shard) + "/" + std::to_string(options.shards);
}

namespace {

std::vector<std::shared_ptr<PropertyProvider>>& provider_list() {
  static std::vector<std::shared_ptr<PropertyProvider>> list;
  return list;
}

}  // namespace

void register_provider(std::shared_ptr<PropertyProvider> provider) {
  auto& list = provider_list();
  for (const auto& p : list)
    if (p->name() == provider->name())
      throw std::logic_error("property provider registered twice: " + provider->name());
  list.push_back(std::move(provider));
}

const std::vector<std::shared_ptr<PropertyProvider>>& providers() {
  static std::once_flag once;
  std::call_once(once, [] { register_builtin_providers(); });
  return provider_list();
}

std::vector<const PropertyProvider*> providers_for(const std::string& spec) {
  std::vector<const PropertyProvider*> out;
  std::string known;
  for (const auto& p : providers()) {
    if (p->handles_scheme(spec)) out.push_back(p.get());
    for (const auto& s : p->schemes()) known += (known.empty() ? "" : ", ") + s;
  }
  if (out.empty())
    throw SpecError("scheme", "no property provider handles '" + spec + "'; known: " + known);
  return out;
}

const PropertyProvider& provider_for(const std::string& spec) {
  return *providers_for(spec).front();
}

std::vector<PropertyDescription> all_properties() {
  std::vector<PropertyDescription> out;
  for (const auto& p : providers())
    for (const auto& d : p->properties())
      if (std::none_of(out.begin(), out.end(), [&](const auto& x) { return x.name == d.name; }))
        out.push_back(d);
  return out;
}

CaseOutcome PropertyProvider::evaluate_case(const std::string& spec, const std::string& property,
                                            const GeneratedCase&) const {
  CaseOutcome out;
  out.evaluated = false;
  out.refusal = "provider '" + name() + "' does not judge " + property + " of " + spec +
                " on a single case file";
  return out;
}

std::vector<Verdict> run_checks(const std::vector<std::string>& specs,
                                const std::vector<std::string>& properties,
                                const CheckOptions& options) {
  std::vector<std::string> scheme_list;
  for (const auto& s : specs) {
    if (s == "all") {
      for (const auto& p : providers())
        for (const auto& x : p->schemes()) scheme_list.push_back(x);
    } else {
      scheme_list.push_back(s);
    }
  }
  std::vector<std::string> property_list;
  bool every = false;
  for (const auto& name : properties) {
    if (name == "all") {
      every = true;
    } else {
      const auto known = all_properties();
      if (std::none_of(known.begin(), known.end(), [&](const auto& d) { return d.name == name; })) {
        std::string list;
        for (const auto& d : known) list += (list.empty() ? "" : ", ") + d.name;
        throw InputError("property", "unknown property '" + name + "'; known: " + list);
      }
      property_list.push_back(name);
    }
  }
  std::vector<CheckTask> tasks;
  for (const auto& spec : scheme_list) {
    const auto knowing = providers_for(spec);
    const std::string canonical = knowing.front()->canonical(spec);
    // Which provider checks each property of this scheme: the first that knows it.
    auto checker = [&](const std::string& property) -> const PropertyProvider* {
      for (const PropertyProvider* p : knowing)
        for (const auto& d : p->properties())
          if (d.name == property) return p;
      return nullptr;
    };
    std::vector<std::string> wanted = property_list;
    if (every)
      for (const PropertyProvider* p : knowing)
        for (const auto& d : p->properties())
          if ((p == knowing.front() || p->applies(canonical, d.name)) &&
              std::find(wanted.begin(), wanted.end(), d.name) == wanted.end())
            wanted.push_back(d.name);
    for (const auto& property : wanted) {
      const PropertyProvider* provider = checker(property);
      CheckTask task;
      task.label = canonical + " / " + property;
      if (!provider) {
        Verdict v;
        v.scheme = canonical;
        v.property = property;
        v.outcome = Outcome::not_applicable;
        v.note = "provider '" + knowing.front()->name() + "' does not check this property";
        task.run = [v] { return std::vector<Verdict>{v}; };
      } else if (options.shards > 1 && !provider->shards_cases()) {
        task.run = [provider, canonical, property, options] {
          CheckOptions whole = options;
          whole.shard = 0;
          whole.shards = 1;
          Verdict v = provider->check(canonical, property, whole);
          v.whole = true;
          return std::vector<Verdict>{std::move(v)};
        };
      } else {
        task.run = [provider, canonical, property, options] {
          return std::vector<Verdict>{provider->check(canonical, property, options)};
        };
        if (options.shards <= 1 && provider->shards_cases() && !provider->pass_note_counts_cases())
          task.run_share = [provider, canonical, property, options](int share, int shares) {
            CheckOptions part = options;
            part.shard = share;
            part.shards = shares;
            part.share = true;
            return std::vector<Verdict>{provider->check(canonical, property, part)};
          };
      }
      tasks.push_back(std::move(task));
    }
  }
  std::vector<Verdict> verdicts;
  for (auto& r : run_check_tasks(tasks, options))
    for (auto& v : r) verdicts.push_back(std::move(v));
  return verdicts;
}

void add_coverage(std::vector<std::pair<std::string, int>>& sum,
                  const std::vector<std::pair<std::string, int>>& share) {
  for (const auto& entry_of_share : share) {
    // Not a structured binding: clang 14 (the sanitizer job's compiler) cannot capture one.
    const std::string& what = entry_of_share.first;
    const int count = entry_of_share.second;
    const auto it = std::find_if(sum.begin(), sum.end(),
                                 [&what](const auto& entry) { return entry.first == what; });
    if (it != sum.end()) {
      it->second += count;
    } else {
      // Where the whole run lists it: "evaluated" (or "evaluated runs") first, then the classes
      // by name (the runner's std::map), so that a merge of shares prints what --jobs 1 prints.
      const auto denominator = [](const std::string& key) {
        return key == evaluated_key(false) || key == evaluated_key(true);
      };
      const auto after_evaluated =
          sum.begin() + (!sum.empty() && denominator(sum.front().first) ? 1 : 0);
      const auto at = denominator(what)
                          ? sum.begin()
                          : std::find_if(after_evaluated, sum.end(),
                                         [&what](const auto& entry) { return entry.first > what; });
      sum.emplace(at, what, count);
    }
  }
}

std::optional<Verdict> merge_shares(const std::vector<Verdict>& shares) {
  if (shares.empty()) return std::nullopt;
  for (const auto& v : shares)
    if (v.outcome == Outcome::fail) return std::nullopt;
  Verdict merged = shares.front();
  const bool skipped =
      merged.outcome == Outcome::not_claimed || merged.outcome == Outcome::not_applicable;
  if (merged.whole || skipped) return merged;
  for (std::size_t i = 1; i < shares.size(); ++i) {
    merged.cases_run += shares[i].cases_run;
    add_coverage(merged.coverage, shares[i].coverage);
  }
  // The rules a whole run judges and a share does not: where one bites, only the whole run can
  // say what it says (its note, and no sharpness probes after it).
  if (!whole_run_failure(merged.property, merged.cases_run, merged.coverage).empty())
    return std::nullopt;
  return merged;
}

std::vector<std::vector<Verdict>> run_check_tasks(const std::vector<CheckTask>& tasks,
                                                  const CheckOptions& options) {
  // The random searches' configuration (RC_PARAMS) is read once, before any task runs, so that
  // tasks run in child processes do not each read it again. rapidcheck announces it on stderr
  // ("Using configuration: seed=<random>"); every nsh search passes its own seed (--seed), so
  // that line would name a seed nothing uses: it is not shown.
  {
    std::ostringstream announced;
    std::streambuf* const stderr_buffer = std::cerr.rdbuf(announced.rdbuf());
    try {
      (void)rc::detail::configuration();
    } catch (...) {
      std::cerr.rdbuf(stderr_buffer);
      throw;
    }
    std::cerr.rdbuf(stderr_buffer);
  }
  std::vector<std::vector<Verdict>> results;
  if (options.run_tasks) {
    results = options.run_tasks(tasks);
  } else {
    for (const auto& task : tasks) {
      const auto start = std::chrono::steady_clock::now();
      results.push_back(task.run());
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (options.progress)
        for (const auto& v : results.back()) options.progress(v, seconds);
    }
  }
  return results;
}

std::vector<Verdict> check_mutant(const std::string& mutant_spec, const CheckOptions& options) {
  const auto knowing = providers_for(mutant_spec);
  const std::string canonical = knowing.front()->canonical(mutant_spec);
  CheckOptions claimed = options;
  claimed.force = false;
  std::vector<Verdict> verdicts;
  std::vector<std::string> seen;
  for (const PropertyProvider* provider : knowing)
    for (const auto& d : provider->properties()) {
      if (std::find(seen.begin(), seen.end(), d.name) != seen.end()) continue;
      seen.push_back(d.name);
      if (!provider->claims(canonical, d.name)) continue;
      verdicts.push_back(provider->check(canonical, d.name, claimed));
      // One rejection decides; the properties a mutant does not break are the expensive ones
      // to check to the end (double_vs_real50 on an event-driven mutant runs every case in
      // Real50: minutes), so the rest are not run.
      if (verdicts.back().outcome == Outcome::fail) return verdicts;
    }
  return verdicts;
}

}  // namespace nsh::properties
