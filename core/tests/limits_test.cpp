// The resource limits of nsh/limits.hpp (docs/limits.md), each from the reproducer of issue 20
// or 21 that it answers: deep nesting, long and huge numbers, declared sizes far beyond the
// stored entries, the exact size guard, and messages that always name the field.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/json_limits.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace nsh {
namespace {

using json = nlohmann::json;

const std::string limits_data_dir = std::string(NSH_SOURCE_DIR) + "/core/tests/data/limits/";

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string nested(std::size_t depth, const std::string& open, const std::string& inner,
                   const std::string& close) {
  std::string out;
  out.reserve(depth * (open.size() + close.size()) + inner.size());
  for (std::size_t i = 0; i < depth; ++i) out += open;
  out += inner;
  for (std::size_t i = 0; i < depth; ++i) out += close;
  return out;
}

// Every loader of a linear document refuses `text` with an InputError naming `field`.
void expect_refused(const std::string& text, const std::string& field, const std::string& part) {
  const std::vector<std::pair<std::string, std::function<void(const CaseDocument&)>>> loaders = {
      {"dense double", [](const CaseDocument& d) { load_linear_case<double>(d); }},
      {"dense Real50", [](const CaseDocument& d) { load_linear_case<Real50>(d); }},
      {"dense Rational", [](const CaseDocument& d) { load_linear_case<Rational>(d); }},
      {"sparse double", [](const CaseDocument& d) { load_sparse_linear_case<double>(d); }},
  };
  for (const auto& [name, load] : loaders) {
    try {
      load(parse_case_text(text));
      ADD_FAILURE() << name << " accepted the document";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), field) << name << ": " << e.what();
      EXPECT_TRUE(mentions(e.what(), part)) << name << ": " << e.what();
      EXPECT_LT(std::string(e.what()).size(), 400u) << name;
    }
  }
}

// Issue 20.1: 10^5 levels where a number is expected used to pass the SAX parse and overflow
// the stack in the error message's dump(). The parse stops at the depth limit now.
TEST(Limits, DeepNestingIsRefusedWhileParsing) {
  const std::string base = R"("M": [[1]], "q0": [0], "v0": [0])";
  for (const std::string& text :
       {"{" + base + R"(, "T": )" + nested(100000, "[", "1", "]") + "}",
        R"({"name": )" + nested(100000, R"({"a": )", "1", "}") + ", " + base + R"(, "T": 1})",
        R"({"M": [[)" + nested(100000, "[", "1", "]") + R"(]], "q0": [0], "v0": [0], "T": 1})",
        "{" + base + R"(, "T": 1, "e": )" + nested(100000, "[", "", "]") + "}",
        nested(100000, "[", "", "]")}) {
    try {
      parse_case_text(text, "deep.json");
      ADD_FAILURE() << "accepted " << text.size() << " bytes of nesting";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "deep.json");
      EXPECT_TRUE(mentions(e.what(), std::to_string(limits::max_json_depth))) << e.what();
    }
  }
  // Up to the limit, nesting parses (every nsh file needs 5 levels at most).
  EXPECT_NO_THROW(
      parse_case_text(R"({"a": )" + nested(limits::max_json_depth - 1, "[", "1", "]") + "}", "x"));
}

// Values that are wrong but within the depth limit are still described in bounded text.
TEST(Limits, MessagesDescribeValuesInBoundedText) {
  const std::string deep = nested(limits::max_json_depth - 2, "[", "1", "]");
  const std::string base = R"("M": [[1]], "q0": [0], "v0": [0])";
  for (const std::string field : {"T", "name", "family", "sparse"}) {
    const std::string doc = field == "T"
                                ? "{" + base + R"(, "T": )" + deep + "}"
                                : "{" + base + R"(, "T": 1, ")" + field + "\": " + deep + "}";
    try {
      load_linear_case<double>(parse_case_text(doc));
      ADD_FAILURE() << field;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), field) << e.what();
      EXPECT_LT(std::string(e.what()).size(), 300u) << e.what();
    }
  }
  const json big = json::parse(nested(20, "[", "\"" + std::string(10000, 'x') + "\"", "]"));
  const std::string shown = limits::describe_json(big);
  EXPECT_LE(shown.size(), 70u) << shown;
  EXPECT_EQ(shown.rfind("array [[[", 0), 0u) << shown;
  EXPECT_EQ(limits::describe_json(json(3)), "number 3");
}

// Issue 20.3: 3e5 digits took minutes (O(d^2)); 1e99999 grew without bound in Rational.
TEST(Limits, NumberTextHasADigitAndAnExponentLimit) {
  const std::string many = "1." + std::string(300000, '3');
  const std::string zeros = "0." + std::string(limits::max_number_digits + 1, '0') + "1";
  for (const std::string& text : {many, zeros, many + "/3", "1/" + many}) {
    try {
      parse_number<Rational>(text, "K[0][0]");
      ADD_FAILURE() << text.size();
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "K[0][0]");
      EXPECT_TRUE(mentions(e.what(), "digits")) << e.what();
      EXPECT_LT(std::string(e.what()).size(), 200u) << e.what();
    }
  }
  for (const char* text : {"1e99999", "1e-99999", "1e1001", "2/1e5000", "1e99999999999999999999"}) {
    for (int kind = 0; kind < 3; ++kind) {
      try {
        if (kind == 0) parse_number<double>(text, "K[0][0]");
        if (kind == 1) parse_number<Real50>(text, "K[0][0]");
        if (kind == 2) parse_number<Rational>(text, "K[0][0]");
        ADD_FAILURE() << text;
      } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "K[0][0]") << text;
        EXPECT_TRUE(mentions(e.what(), "exponent")) << e.what();
      }
    }
  }
  // At the limits: still read, exactly.
  const std::string longest = std::string(limits::max_number_digits, '7');
  EXPECT_EQ(parse_number<Rational>(longest, "x"),
            Rational(boost::multiprecision::cpp_int(longest)));
  EXPECT_EQ(parse_number<Rational>("1e-1000", "x"),
            Rational(1, boost::multiprecision::pow(boost::multiprecision::cpp_int(10), 1000)));
  EXPECT_EQ(parse_number<double>("1e-1000", "x"), 0.0);
  EXPECT_EQ(parse_number<Rational>("123456789012345678901234567890.5", "x"),
            Rational(boost::multiprecision::cpp_int("1234567890123456789012345678905"), 10));
  // The case file with such an entry names it.
  expect_refused(R"({"M": [[1]], "K": [["1e99999"]], "q0": [0], "v0": [0], "T": 1})", "K[0][0]",
                 "exponent");
}

// Issue 21.3: the declared size was allocated (and validated: LDL^T pivots, default vectors)
// before q0's length was checked; a declared G of 10^7 x 10^7 ended in std::bad_alloc.
TEST(Limits, DeclaredSizesAreCheckedBeforeAllocating) {
  expect_refused(R"({"sparse": true, "M": {"rows": 10000000, "cols": 10000000,
                     "entries": [[0, 0, 1], [1, 1, 1]]}, "q0": [0, 0], "v0": [0, 0], "T": 1})",
                 "q0", "10000000");
  expect_refused(R"({"sparse": true, "M": {"rows": 1, "cols": 1, "entries": [[0, 0, 1]]},
                     "G": {"rows": 10000000, "cols": 10000000, "entries": []},
                     "e": 0, "q0": [1], "v0": [0], "T": 1})",
                 "G", "rows");
  expect_refused(R"({"sparse": true, "M": {"rows": 1, "cols": 1, "entries": [[0, 0, 1]]},
                     "G": {"rows": 1, "cols": 10000000, "entries": []},
                     "e": 0, "q0": [1], "v0": [0], "T": 1})",
                 "G", "contacts");
  expect_refused(R"({"sparse": true, "M": {"rows": 2, "cols": 2, "entries": [[0, 0, 1], [1, 1, 1]]},
                     "K": {"rows": 10000000, "cols": 2, "entries": []},
                     "q0": [0, 0], "v0": [0, 0], "T": 1})",
                 "K", "2x2");
  expect_refused(R"({"M": [[1, 0], [0, 1]], "q0": [0], "v0": [0, 0], "T": 1})", "q0", "2");
  // The same files as the tests' data (the fuzz corpus replays them).
  for (const char* file : {"sparse-rows-1e7.json", "sparse-G-1e7.json"}) {
    try {
      load_sparse_linear_case<double>(read_case_file(limits_data_dir + file));
      ADD_FAILURE() << file;
    } catch (const InputError& e) {
      EXPECT_FALSE(e.field().empty()) << file;
    }
  }
}

// Issue 20.3: --precision rational read the sparse 1001-dof bar densely and eliminated the
// 101-dof bar exactly with no guard; the guard names the precision.
TEST(Limits, RationalHasADofLimitThatNamesThePrecision) {
  const Index n = limits::max_rational_dofs + 1;
  json entries = json::array();
  for (Index i = 0; i < n; ++i) entries.push_back({i, i, 1});
  const json doc = {{"sparse", true},
                    {"M", {{"rows", n}, {"cols", n}, {"entries", entries}}},
                    {"q0", std::vector<int>(n, 0)},
                    {"v0", std::vector<int>(n, 0)},
                    {"T", 1}};
  try {
    load_linear_case<Rational>(parse_case_text(doc.dump()));
    ADD_FAILURE() << "a rational model of " << n << " dofs was read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "precision");
    EXPECT_TRUE(mentions(e.what(), "--precision")) << e.what();
    EXPECT_TRUE(mentions(e.what(), std::to_string(n))) << e.what();
  }
  EXPECT_NO_THROW(load_linear_case<double>(parse_case_text(doc.dump())));
  // The 101-dof bar is read exactly (its file is compared with its generator), but a run of it
  // in Rational is refused before its first step.
  EXPECT_NO_THROW(limits::check_exact_run(limits::max_rational_run_dofs));
  try {
    limits::check_exact_run(101);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "precision");
    EXPECT_TRUE(mentions(e.what(), "101")) << e.what();
  }
  try {
    load_linear_case<Rational>(read_case_file(locate_case("impacting-bar-1000-sparse")));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "precision") << e.what();
  }
}

// Issue 21.4: an empty key was reported as ": unknown field"; a duplicate key is named.
TEST(Limits, EmptyKeyIsNamed) {
  try {
    load_linear_case<double>(read_case_file(limits_data_dir + "empty-key.json"));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "\"\"");
    EXPECT_TRUE(mentions(e.what(), "the empty key")) << e.what();
  }
  try {
    parse_case_text(R"({"": 1, "": 2})", "dup.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_TRUE(mentions(e.what(), "the empty key")) << e.what();
  }
}

TEST(Limits, ExactSizeAndSteps) {
  using boost::multiprecision::cpp_int;
  EXPECT_NO_THROW(limits::check_exact_size(Rational(1, 3), "q"));
  const Rational huge(cpp_int(1) << (limits::max_exact_bits + 1));
  try {
    limits::check_exact_size(huge, "q[0]");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "q[0]");
    EXPECT_TRUE(mentions(e.what(), "--precision")) << e.what();
  }
  EXPECT_NO_THROW(limits::check_steps(100, 1e7, "--h", "--max-steps"));
  for (double steps :
       {1e13, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    try {
      limits::check_steps(steps, 1e7, "--h", "--max-steps");
      ADD_FAILURE() << steps;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "--h");
      EXPECT_TRUE(mentions(e.what(), "--max-steps")) << e.what();
    }
  }
}

}  // namespace
}  // namespace nsh

namespace nsh {
namespace {

// The file-size limit names the file and its size, and NSH_MAX_INPUT_BYTES raises it for a run
// that means to read a larger file (the 10^6-dof bar of bench/side_by_side.py); a value that is
// not a positive byte count is refused naming the variable.
TEST(Limits, FileSizeLimitAndItsOverride) {
  const std::string where = "the bar";
  ::unsetenv("NSH_MAX_INPUT_BYTES");
  EXPECT_EQ(limits::input_file_bytes_limit(), limits::max_input_file_bytes);
  EXPECT_NO_THROW(limits::check_file_size(limits::max_input_file_bytes, where, "case"));
  try {
    limits::check_file_size(limits::max_input_file_bytes + 1, where, "case");
    ADD_FAILURE() << "a file above the limit was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "case");
    EXPECT_NE(std::string(e.what()).find("67108865 bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("NSH_MAX_INPUT_BYTES"), std::string::npos) << e.what();
  }
  ::setenv("NSH_MAX_INPUT_BYTES", "200000000", 1);
  EXPECT_NO_THROW(limits::check_file_size(106111543, where, "case"));
  EXPECT_THROW(limits::check_file_size(200000001, where, "case"), InputError);
  for (const char* bad : {"0", "-5", "12abc", "lots"}) {
    ::setenv("NSH_MAX_INPUT_BYTES", bad, 1);
    try {
      limits::check_file_size(1, where, "case");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "NSH_MAX_INPUT_BYTES") << bad;
    }
  }
  ::unsetenv("NSH_MAX_INPUT_BYTES");
}

}  // namespace
}  // namespace nsh
