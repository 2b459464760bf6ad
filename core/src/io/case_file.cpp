// Case-file parsing and lookup (the numeric readers are in case_file_linear.cpp).
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/json_limits.hpp>
#include <nsh/limits.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace nsh {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Builds the document like nlohmann's DOM parser, except that every number becomes a string
// holding its source text: a double would already have rounded "0.1" before Rational saw it.
class RawNumberBuilder : public nlohmann::json_sax<json> {
 public:
  RawNumberBuilder(json& root, const std::string& text, const std::string& source)
      : root_(root), text_(text), source_(source) {}

  bool null() override { return put(nullptr); }
  bool boolean(bool value) override { return put(value); }
  // Integers that fit 64 bits arrive without their text; their decimal form is exact. Longer
  // integers arrive through number_float with the text.
  bool number_integer(number_integer_t value) override { return put(std::to_string(value)); }
  bool number_unsigned(number_unsigned_t value) override { return put(std::to_string(value)); }
  bool number_float(number_float_t, const string_t& text) override { return put(text); }
  bool string(string_t& value) override { return put(value); }
  bool binary(binary_t& value) override { return put(json::binary(value)); }

  bool start_object(std::size_t) override {
    limits::check_json_depth(stack_.size() + 1, source_);
    stack_.push_back(place(json::object()));
    return true;
  }
  bool key(string_t& key) override {
    json& object = *stack_.back();
    if (object.contains(key))
      throw InputError(
          source_, "field '" + limits::describe_key(key) + "' appears twice in the same object");
    pending_key_ = &object[key];
    return true;
  }
  bool end_object() override {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    limits::check_json_depth(stack_.size() + 1, source_);
    stack_.push_back(place(json::array()));
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }

  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& error) override {
    // nlohmann counts bytes; lines and columns are what an editor shows (1-based).
    const std::size_t end = std::min(position, text_.size());
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < end; ++i)
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    // `position` counts the offending character itself, so it is already a 1-based column.
    const std::size_t column = end - line_start;
    std::string detail = error.what();
    // Drop nlohmann's own "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    const std::size_t at = detail.find("column ");
    if (at != std::string::npos) {
      const std::size_t colon = detail.find(": ", at);
      if (colon != std::string::npos) detail = detail.substr(colon + 2);
    }
    throw InputError(source_, fmt::format("line {}, column {}: malformed JSON: {}", line,
                                          std::max<std::size_t>(column, 1), detail));
  }

 private:
  json* place(json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    *pending_key_ = std::move(value);
    return pending_key_;
  }
  template <class V>
  bool put(V&& value) {
    place(json(std::forward<V>(value)));
    return true;
  }

  json& root_;
  const std::string& text_;
  const std::string& source_;
  std::vector<json*> stack_;
  json* pending_key_ = nullptr;
};

std::string stem_of(const std::string& source) {
  const fs::path p(source);
  return p.has_stem() ? p.stem().string() : source;
}

// Where built-in cases live, in lookup order; only existing directories are returned.
std::vector<fs::path> case_directories() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("NSH_CASES_DIR"); env && *env) candidates.emplace_back(env);
#ifdef NSH_SOURCE_CASES_DIR
  candidates.emplace_back(NSH_SOURCE_CASES_DIR);
#endif
#ifdef NSH_INSTALL_CASES_DIR
  candidates.emplace_back(NSH_INSTALL_CASES_DIR);
#endif
  // A relocated install (cmake --install --prefix P): the program sits in P/bin and the cases
  // in P/share/nsh/cases.
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "share" / "nsh" / "cases");
  std::vector<fs::path> found;
  for (const auto& c : candidates)
    if (fs::is_directory(c, ec)) found.push_back(c);
  return found;
}

}  // namespace

CaseDocument parse_case_text(const std::string& text, const std::string& source) {
  CaseDocument document;
  document.source = source;
  RawNumberBuilder builder(document.root, text, source);
  json::sax_parse(text, &builder);
  if (!document.root.is_object())
    throw InputError(source, "a case file is a JSON object { \"M\": ..., ... }, got a JSON " +
                                 std::string(document.root.type_name()));
  const auto name = document.root.find("name");
  if (name == document.root.end()) {
    document.name = source == "<text>" ? "case" : stem_of(source);
  } else if (name->is_string()) {
    document.name = name->get<std::string>();
  } else {
    throw InputError("name", "expected a string, got " + limits::describe_json(*name));
  }
  const auto family = document.root.find("family");
  if (family == document.root.end()) {
    document.family = "linear";
  } else if (family->is_string()) {
    document.family = family->get<std::string>();
  } else {
    throw InputError("family",
                     "expected a string such as \"linear\", got " + limits::describe_json(*family));
  }
  return document;
}

CaseDocument read_case_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw InputError("case", "case file '" + path + "' does not exist or is not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("case", "cannot open case file '" + path + "'");
  const std::uintmax_t bytes = fs::file_size(path, ec);
  if (!ec) limits::check_file_size(bytes, path, "case");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_case_text(text.str(), path);
}

std::vector<std::string> builtin_case_names() {
  std::vector<std::string> names;
  const auto dirs = case_directories();
  if (dirs.empty()) return names;
  for (const auto& entry : fs::directory_iterator(dirs.front()))
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string locate_case(const std::string& name_or_path) {
  if (name_or_path.empty()) throw InputError("case", "empty case name");
  std::error_code ec;
  const bool looks_like_path =
      name_or_path.find('/') != std::string::npos || fs::path(name_or_path).extension() == ".json";
  if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
  if (looks_like_path) throw InputError("case", "case file '" + name_or_path + "' does not exist");
  const auto dirs = case_directories();
  for (const auto& dir : dirs) {
    const fs::path candidate = dir / (name_or_path + ".json");
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  if (dirs.empty())
    throw InputError("case", "unknown case '" + name_or_path +
                                 "': no directory of built-in cases found (set NSH_CASES_DIR)");
  throw InputError("case", "unknown case '" + name_or_path + "'; built-in cases: " +
                               join(builtin_case_names()) + " (or give a path to a case file)");
}

}  // namespace nsh
