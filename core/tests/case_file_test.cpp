// Case files: exact number reading, messages that name the field, lookup, round trip.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace nsh {
namespace {

const char* const kTwoBody = R"({
  "name": "two-body",
  "M": [[2, 0], [0, 3]],
  "K": [[0, 0], [0, 0]],
  "C": [[0, 0], [0, 0]],
  "F": [0, 0],
  "G": [[1], [-1]],
  "w": [0],
  "e": ["1/2"],
  "q0": [0, 0],
  "v0": [-1, 1],
  "T": 1
})";

// The message of the InputError thrown by `f`, or a failure if none is thrown.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError thrown";
  return "";
}

template <class F>
std::string field_of_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.field();
  }
  ADD_FAILURE() << "no InputError thrown";
  return "";
}

// A one-contact, one-dof document with `field` replaced by `value` (JSON text).
std::string ball_with(const std::string& field, const std::string& value) {
  nlohmann::json j = nlohmann::json::parse(R"({"M": [[1]], "F": [-9.81], "G": [[1]], "w": [0],
      "e": 0.5, "q0": [1], "v0": [0], "T": 1})");
  if (value.empty()) {
    j.erase(field);
  } else {
    j[field] = nlohmann::json::parse(value);
  }
  return j.dump();
}

template <class Scalar>
LinearCase<Scalar> load(const std::string& text) {
  return load_linear_case<Scalar>(parse_case_text(text));
}

TEST(CaseFile, DecimalIsExactInRational) {
  const auto doc = parse_case_text(
      R"({"x": 0.1, "y": "0.1", "z": 1e-3, "big": 123456789012345678901234567890})");
  EXPECT_EQ(case_number<Rational>(doc.root["x"], "x"), Rational(1, 10));
  EXPECT_EQ(case_number<Rational>(doc.root["y"], "y"), Rational(1, 10));
  EXPECT_EQ(case_number<Rational>(doc.root["z"], "z"), Rational(1, 1000));
  EXPECT_EQ(case_number<Rational>(doc.root["big"], "big"),
            Rational(boost::multiprecision::cpp_int("123456789012345678901234567890")));
  // The document keeps the source text, not a double.
  EXPECT_EQ(doc.root["x"].get<std::string>(), "0.1");
}

TEST(CaseFile, FractionToFullPrecisionInReal50) {
  const auto doc = parse_case_text(R"({"third": "1/3", "tenth": 0.1})");
  const Real50 third = case_number<Real50>(doc.root["third"], "third");
  EXPECT_EQ(third, Real50(1) / Real50(3));
  EXPECT_EQ(format_scalar(third).substr(0, 52),
            "0.33333333333333333333333333333333333333333333333333");
  // 0.1 in Real50 is the 50-digit rounding of 1/10, not the double 0.1000000000000000055...
  const Real50 tenth = case_number<Real50>(doc.root["tenth"], "tenth");
  EXPECT_EQ(tenth, Real50(1) / Real50(10));
  EXPECT_NE(tenth, Real50(0.1));
  EXPECT_EQ(case_number<double>(doc.root["tenth"], "tenth"), 0.1);
}

TEST(CaseFile, LoadsTwoBodyExactly) {
  const auto c = load<Rational>(kTwoBody);
  EXPECT_EQ(c.model.name, "two-body");
  EXPECT_EQ(c.model.dofs(), 2);
  EXPECT_EQ(c.model.contacts(), 1);
  EXPECT_EQ(c.model.M(1, 1), Rational(3));
  EXPECT_EQ(c.model.G(1, 0), Rational(-1));
  EXPECT_EQ(c.model.e(0), Rational(1, 2));
  EXPECT_EQ(c.initial.v(0), Rational(-1));
  EXPECT_EQ(c.initial.t, Rational(0));
  EXPECT_EQ(c.T, Rational(1));
  EXPECT_FALSE(c.h.has_value());
}

TEST(CaseFile, DefaultsAndBroadcastRestitution) {
  const auto c = load<Rational>(R"({"M": [[1, 0], [0, 1]], "G": [[1, 0], [0, 1]], "e": "1/4",
      "q0": [1, 2], "v0": [0, 0], "t0": "1/2", "T": 2, "h": "1/8"})");
  EXPECT_EQ(c.model.K, Matrix<Rational>::Zero(2, 2));
  EXPECT_EQ(c.model.C, Matrix<Rational>::Zero(2, 2));
  EXPECT_EQ(c.model.F, Vector<Rational>::Zero(2));
  EXPECT_EQ(c.model.w, Vector<Rational>::Zero(2));
  ASSERT_EQ(c.model.e.size(), 2);
  EXPECT_EQ(c.model.e(0), Rational(1, 4));
  EXPECT_EQ(c.model.e(1), Rational(1, 4));
  EXPECT_EQ(c.initial.t, Rational(1, 2));
  ASSERT_TRUE(c.h.has_value());
  EXPECT_EQ(*c.h, Rational(1, 8));
}

TEST(CaseFile, NoContacts) {
  const auto c = load<double>(R"({"M": [[2]], "K": [[4]], "q0": [1], "v0": [0], "T": 1})");
  EXPECT_EQ(c.model.contacts(), 0);
  EXPECT_EQ(c.model.G.rows(), 1);
}

TEST(CaseFile, HarmonicForce) {
  const auto c = load<double>(R"({"M": [[1]], "F_amplitude": [2], "omega": 3, "q0": [0],
      "v0": [0], "T": 1})");
  EXPECT_TRUE(c.model.has_harmonic_force());
  EXPECT_EQ(c.model.omega, 3.0);
  EXPECT_NE(error_of([] {
              load<double>(R"({"M": [[1]], "F_amplitude": [2], "q0": [0], "v0": [0], "T": 1})");
            }).find("omega"),
            std::string::npos);
}

TEST(CaseFile, MalformedJsonNamesSourceLineAndColumn) {
  const std::string text = "{\n  \"M\": [[1]],\n  \"F\": [1,, 2]\n}";
  const std::string message = error_of([&] { parse_case_text(text, "bad.json"); });
  EXPECT_NE(message.find("bad.json"), std::string::npos) << message;
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("column 11"), std::string::npos) << message;
  EXPECT_NE(message.find("malformed JSON"), std::string::npos) << message;
  // The first line has column numbers too, and an unterminated document is reported.
  const std::string first = error_of([] { parse_case_text("{\"a\": tru}", "x.json"); });
  EXPECT_NE(first.find("line 1, column"), std::string::npos) << first;
  const std::string end = error_of([] { parse_case_text("{\"a\": [1, 2", "y.json"); });
  EXPECT_NE(end.find("y.json: line 1"), std::string::npos) << end;
}

TEST(CaseFile, NotAnObjectOrDuplicateKey) {
  EXPECT_NE(error_of([] { parse_case_text("[1, 2]", "arr.json"); }).find("arr.json"),
            std::string::npos);
  const std::string dup = error_of([] { parse_case_text(R"({"M": [[1]], "M": [[2]]})"); });
  EXPECT_NE(dup.find("'M' appears twice"), std::string::npos) << dup;
}

TEST(CaseFile, MissingFieldIsNamed) {
  for (const char* field : {"M", "q0", "v0", "T", "e"}) {
    const std::string text = ball_with(field, "");
    EXPECT_EQ(field_of_error([&] { load<double>(text); }), field) << text;
    EXPECT_NE(error_of([&] { load<double>(text); }).find("missing"), std::string::npos);
  }
}

TEST(CaseFile, RaggedMatrixNamesTheRow) {
  const std::string text = R"({"M": [[1, 0], [0]], "q0": [0, 0], "v0": [0, 0], "T": 1})";
  EXPECT_EQ(field_of_error([&] { load<double>(text); }), "M[1]");
  EXPECT_NE(error_of([&] { load<double>(text); }).find("ragged"), std::string::npos);
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("M", "[1]")); }), "M[0]");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("M", "3")); }), "M");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("q0", "{\"a\": 1}")); }), "q0");
}

TEST(CaseFile, WrongDimensionsNameTheField) {
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("K", "[[1, 0], [0, 1]]")); }), "K");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("F", "[1, 2]")); }), "F");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("G", "[[1], [2]]")); }), "G");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("w", "[0, 0]")); }), "w");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("e", "[0.5, 0.5]")); }), "e");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("q0", "[1, 2]")); }), "q0");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("v0", "[]")); }), "v0");
  const std::string message = error_of([] { load<double>(ball_with("K", "[[1, 0], [0, 1]]")); });
  EXPECT_NE(message.find("1x1"), std::string::npos) << message;
}

TEST(CaseFile, NanLikeAndMalformedNumbersAreRejected) {
  for (const char* bad : {"\"nan\"", "\"NaN\"", "\"inf\"", "\"-Infinity\"", "\"1/0\"", "\"abc\"",
                          "\"\"", "\"0x10\"", "true", "null"}) {
    const std::string text = ball_with("F", std::string("[") + bad + "]");
    const std::string message = error_of([&] { load<Rational>(text); });
    EXPECT_NE(message.find("F[0]"), std::string::npos) << bad << ": " << message;
  }
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("q0", "[\"1e400\"]")); }), "q0[0]");
}

TEST(CaseFile, RestitutionOutOfRange) {
  for (const char* e : {"1.5", "-0.25", "[\"3/2\"]"}) {
    const std::string text = ball_with("e", e);
    EXPECT_EQ(field_of_error([&] { load<Rational>(text); }), "e[0]") << e;
    EXPECT_NE(error_of([&] { load<Rational>(text); }).find("[0, 1]"), std::string::npos);
  }
}

TEST(CaseFile, NonSpdMassNamesTheEntry) {
  const std::string asym = R"({"M": [[1, 2], [0, 1]], "q0": [0, 0], "v0": [0, 0], "T": 1})";
  const std::string m1 = error_of([&] { load<Rational>(asym); });
  EXPECT_NE(m1.find("M[1][0]"), std::string::npos) << m1;
  EXPECT_NE(m1.find("symmetric"), std::string::npos) << m1;
  const std::string indefinite = R"({"M": [[1, 2], [2, 1]], "q0": [0, 0], "v0": [0, 0], "T": 1})";
  const std::string m2 = error_of([&] { load<Rational>(indefinite); });
  EXPECT_EQ(m2.rfind("M:", 0), 0u) << m2;
  EXPECT_NE(m2.find("positive definite"), std::string::npos) << m2;
  EXPECT_NE(m2.find("M[1][1]"), std::string::npos) << m2;
  const std::string k = error_of([] { load<double>(ball_with("K", "[[-1]]")); });
  EXPECT_EQ(k.rfind("K:", 0), 0u) << k;
  EXPECT_NE(k.find("semidefinite"), std::string::npos) << k;
}

TEST(CaseFile, HorizonStepAndFamily) {
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("h", "0")); }), "h");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("h", "\"-1/100\"")); }), "h");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("T", "-1")); }), "T");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("family", "\"sweeping\"")); }), "family");
  EXPECT_EQ(field_of_error([] { load<double>(ball_with("k", "[[1]]")); }), "k");
  EXPECT_NO_THROW(load<double>(ball_with("_note", "\"metadata\"")));
  EXPECT_NO_THROW(load<double>(ball_with("description", "\"a ball\"")));
}

template <class Scalar>
void expect_round_trip(const LinearCase<Scalar>& c) {
  const std::string text = write_linear_case<Scalar>(c.model.name, c.model, c.initial, c.T, c.h);
  const auto back = load<Scalar>(text);
  EXPECT_EQ(back.model.name, c.model.name);
  EXPECT_EQ(back.model.M, c.model.M) << text;
  EXPECT_EQ(back.model.C, c.model.C);
  EXPECT_EQ(back.model.K, c.model.K);
  EXPECT_EQ(back.model.F, c.model.F);
  EXPECT_EQ(back.model.F_amplitude, c.model.F_amplitude);
  EXPECT_EQ(back.model.omega, c.model.omega);
  EXPECT_EQ(back.model.G, c.model.G);
  EXPECT_EQ(back.model.w, c.model.w);
  EXPECT_EQ(back.model.e, c.model.e);
  EXPECT_EQ(back.model.G_T, c.model.G_T) << text;
  EXPECT_EQ(back.model.mu, c.model.mu);
  EXPECT_EQ(back.initial.t, c.initial.t);
  EXPECT_EQ(back.initial.q, c.initial.q);
  EXPECT_EQ(back.initial.v, c.initial.v);
  EXPECT_EQ(back.T, c.T);
  EXPECT_EQ(back.h, c.h);
}

const char* const kAwkward = R"({"name": "awk \"ward\"",
    "M": [["1/3", "1/7"], ["1/7", 0.1]], "K": [["2/3", 0], [0, 0]], "C": [[0.001, 0], [0, 0]],
    "F": ["-9.81", "1e-7"], "F_amplitude": [0, "1/3"], "omega": "2/3",
    "G": [[1, "-1/9"], [0.3, 1]], "w": ["1/11", 0], "e": [1, "0"],
    "q0": ["1/3", "-2/7"], "v0": [0.7, "1e5"], "t0": "1/9", "T": "10/3", "h": "1/300"})";

TEST(CaseFile, WriteRoundTripsExactly) {
  expect_round_trip(load<Rational>(kAwkward));
  expect_round_trip(load<Real50>(kAwkward));
  expect_round_trip(load<double>(kAwkward));
  expect_round_trip(load<Rational>(kTwoBody));
  expect_round_trip(load<double>(R"({"M": [[2]], "q0": [1], "v0": [0], "T": 1})"));
  // Values that are no short decimal: every double / Real50 is written exactly.
  auto c = load<double>(kTwoBody);
  c.initial.q(0) = 1.0 / 3.0;
  c.initial.q(1) = 5e-324;
  c.model.M(0, 0) = 2.0 + 1e-15;
  expect_round_trip(c);
  auto r = load<Real50>(kTwoBody);
  r.initial.q(0) = Real50(1) / Real50(3);
  r.initial.q(1) = Real50(2) / Real50(7) * Real50("1e-30");
  r.model.M(1, 1) = Real50(3) + Real50(1) / Real50(3);
  expect_round_trip(r);
}

// A frictional disk on two stops (q = (x, y, phi)), with exact tangent directions.
const char* const kFrictional = R"({"name": "disk",
    "M": [[1, 0, 0], [0, 1, 0], [0, 0, "1/200"]], "F": [0, "-9.81", 0],
    "G": [[0, "3/5"], [1, "4/5"], [0, 0]], "w": ["-1/10", 0], "e": 0,
    "G_T": [[1, "4/5"], [0, "-3/5"], ["1/10", "0.1"]], "mu": ["0.3", "1/7"],
    "q0": [0, "1/10", 0], "v0": [1, 0, 0], "T": 1, "h": "1/100"})";

const char* const kTwoBodyAsWritten = R"({
  "name": "two-body",
  "family": "linear",
  "M": [[2, 0],
        [0, 3]],
  "C": [[0, 0],
        [0, 0]],
  "K": [[0, 0],
        [0, 0]],
  "F": [0, 0],
  "G": [[1],
        [-1]],
  "w": [0],
  "e": ["1/2"],
  "q0": [0, 0],
  "v0": [-1, 1],
  "t0": 0,
  "h": "1/100",
  "T": 1
}
)";

TEST(CaseFile, FrictionFieldsAreExact) {
  const auto c = load<Rational>(kFrictional);
  EXPECT_EQ(c.model.tangent_directions(), 1);
  EXPECT_TRUE(c.model.has_friction());
  EXPECT_EQ(c.model.G_T(2, 1), Rational(1, 10));  // "0.1" read exactly
  EXPECT_EQ(c.model.G_T(1, 1), Rational(-3, 5));
  EXPECT_EQ(c.model.mu(0), Rational(3, 10));
  EXPECT_EQ(c.model.mu(1), Rational(1, 7));
  // One number is every contact's coefficient.
  nlohmann::json j = nlohmann::json::parse(kFrictional);
  j["mu"] = "1/4";
  const auto one = load<Rational>(j.dump());
  EXPECT_EQ(one.model.mu, Vector<Rational>::Constant(2, Rational(1, 4)));
  // d = 2: two tangent columns per contact, contact-major.
  j["G_T"] = nlohmann::json::parse(R"([[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]])");
  EXPECT_EQ(load<double>(j.dump()).model.tangent_directions(), 2);
  // No G_T, or "G_T": [], is frictionless.
  j["G_T"] = nlohmann::json::array();
  j.erase("mu");
  const auto none = load<double>(j.dump());
  EXPECT_EQ(none.model.tangent_directions(), 0);
  EXPECT_FALSE(none.model.has_friction());
}

TEST(CaseFile, FrictionErrorsNameTheFieldAndTheValue) {
  const auto with = [](const std::string& field, const std::string& value) {
    nlohmann::json j = nlohmann::json::parse(kFrictional);
    if (value.empty()) {
      j.erase(field);
    } else {
      j[field] = nlohmann::json::parse(value);
    }
    return j.dump();
  };
  const auto expect = [](const std::string& text, const std::string& field,
                         const std::string& says) {
    const std::string message = error_of([&] { load<Rational>(text); });
    EXPECT_EQ(field_of_error([&] { load<double>(text); }), field) << message;
    EXPECT_NE(message.find(says), std::string::npos) << message;
  };
  expect(with("mu", R"(["0.3", "-1/2"])"), "mu[1]", "-1/2 is negative");
  expect(with("mu", "-0.5"), "mu", "-0.5 is negative");
  expect(with("mu", R"(["0.3", "nan"])"), "mu[1]", "nan");
  expect(with("mu", "[1, 2, 3]"), "mu", "expected 2 entries");
  expect(with("mu", ""), "mu", "is missing");
  expect(with("G_T", R"([[1, 0, 0], [0, 0, 1], [0, 1, 0]])"), "G_T",
         "3 columns is not a multiple of m = 2");
  expect(with("G_T", "[[1, 0], [0, 0]]"), "G_T", "expected 3 rows");
  expect(with("G_T", "[[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]"), "G_T",
         "d = 3");
  expect(with("G_T", R"([[1, 0], [0, "1/0"], [0, 0]])"), "G_T[1][1]", "1/0");
  expect(with("G_T", R"({"rows": 3, "cols": 2, "entries": []})"), "G_T", "is an object");
  expect(with("G_T", ""), "mu", "without G_T");
  // Tangent directions need contacts.
  expect(R"({"M": [[1]], "G_T": [[1]], "mu": 1, "q0": [0], "v0": [0], "T": 1})", "G_T",
         "no contacts");
  // The sparse format is frictionless: its friction fields are refused by name.
  const std::string sparse = R"({"sparse": true, "M": {"rows": 2, "cols": 2,
      "entries": [[0, 0, 1], [1, 1, 1]]}, "G": [[0], [1]], "e": 0, "q0": [0, 0], "v0": [1, 0],
      "T": 1)";
  expect(sparse + R"(, "G_T": [[1], [0]], "mu": 1})", "G_T", "frictionless");
  expect(sparse + R"(, "mu": 1})", "mu", "sparse");
  EXPECT_NO_THROW(load<double>(sparse + "}"));
  // A dense frictional document read as a sparse model (nsh events) is refused, not stripped.
  EXPECT_EQ(field_of_error([] { load_sparse_linear_case<double>(parse_case_text(kFrictional)); }),
            "mu");
  EXPECT_EQ(field_of_error([&] {
              load_sparse_linear_case<double>(parse_case_text(sparse + R"(, "mu": 1})"));
            }),
            "mu");
}

TEST(CaseFile, FrictionRoundTripsAndFrictionlessFilesAreWrittenAsBefore) {
  expect_round_trip(load<Rational>(kFrictional));
  expect_round_trip(load<Real50>(kFrictional));
  expect_round_trip(load<double>(kFrictional));
  auto c = load<double>(kFrictional);
  c.model.mu(1) = 1.0 / 3.0;
  c.model.G_T(0, 0) = 5e-324;
  expect_round_trip(c);
  const std::string text = write_linear_case<Rational>(
      "disk", load<Rational>(kFrictional).model, load<Rational>(kFrictional).initial, Rational(1));
  EXPECT_NE(text.find("\"G_T\": [[1, \"4/5\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"mu\": [\"3/10\", \"1/7\"]"), std::string::npos) << text;
  // The writer's text of a frictionless case, pinned byte for byte: the friction fields must
  // not change it (its code path is the writer's of commit 11a04f6, which printed this text).
  const auto two = load<Rational>(kTwoBody);
  EXPECT_EQ(
      write_linear_case<Rational>("two-body", two.model, two.initial, two.T, Rational(1, 100)),
      kTwoBodyAsWritten);
}

TEST(CaseFile, ReadFileAndLocate) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("nsh_case_file_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream(dir / "alpha.json") << kTwoBody;
    std::ofstream(dir / "beta.json") << R"({"M": [[1]], "q0": [0], "v0": [1], "T": 1})";
    std::ofstream(dir / "notes.txt") << "not a case";
  }
  ::setenv("NSH_CASES_DIR", dir.c_str(), 1);
  EXPECT_EQ(builtin_case_names(), (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(locate_case("beta"), (dir / "beta.json").string());
  const auto doc = read_case_file(locate_case("beta"));
  EXPECT_EQ(doc.name, "beta");  // the file stem when there is no "name"
  EXPECT_EQ(doc.family, "linear");
  const std::string unknown = error_of([] { locate_case("gamma"); });
  EXPECT_NE(unknown.find("unknown case 'gamma'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("alpha, beta"), std::string::npos) << unknown;
  EXPECT_EQ(field_of_error([] { locate_case("no/such/file.json"); }), "case");
  EXPECT_EQ(field_of_error([&] { read_case_file((dir / "missing.json").string()); }), "case");
  // A path wins over the name lookup.
  EXPECT_EQ(locate_case((dir / "alpha.json").string()), (dir / "alpha.json").string());
  ::unsetenv("NSH_CASES_DIR");
  fs::remove_all(dir);
}

TEST(CaseFile, BuiltinCasesOfTheSourceTreeLoad) {
  ::unsetenv("NSH_CASES_DIR");
  const std::string ball = locate_case("bouncing-ball");
  const auto c = load_linear_case<Rational>(read_case_file(ball));
  EXPECT_EQ(c.model.F(0), Rational(-981, 100));
  EXPECT_EQ(c.model.e(0), Rational(1, 2));
  EXPECT_EQ(c.T, Rational(3));
  ASSERT_TRUE(c.h.has_value());
  EXPECT_EQ(*c.h, Rational(1, 100));
  const auto two = load_linear_case<Rational>(read_case_file(locate_case("two-body")));
  // In contact at t0 and approaching.
  EXPECT_EQ(two.model.gap(two.initial.q)(0), Rational(0));
  EXPECT_EQ(two.model.local_velocity(two.initial.v)(0), Rational(-2));
}

}  // namespace
}  // namespace nsh
