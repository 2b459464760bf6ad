// Sparse case files ("sparse": true, triplets): the same model as the dense document in every
// precision, duplicates summed, exact round trip of the writer, and errors naming the field.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/model/sparse_model.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace nsh {
namespace {

using json = nlohmann::json;

// Three masses on springs, two stops, damping: every field of the linear family is used.
const char* const kDense = R"({
  "name": "chain",
  "M": [["1/3", "1/6", 0], ["1/6", "2/3", "1/6"], [0, "1/6", "1/3"]],
  "C": [["1/10", 0, 0], [0, 0, 0], [0, 0, "1/10"]],
  "K": [[2, -2, 0], [-2, 4, -2], [0, -2, 2]],
  "F": [0, "-9.81", 0],
  "F_amplitude": [0, 0, "1/2"], "omega": 3,
  "G": [[1, 0], [0, 0], [0, -1]],
  "w": [0, "1/2"],
  "e": [0, "1/2"],
  "q0": [0, "0.1", 0], "v0": [-1, -1, -1], "t0": 0, "T": 2, "h": "1/100"
})";

// The same model as assembled by elements: the diagonal of M and K comes in two halves
// (duplicates summed), entries in no particular order, G as triplets.
const char* const kSparse = R"({
  "name": "chain", "sparse": true,
  "M": {"rows": 3, "cols": 3, "entries": [
    [1, 1, "1/3"], [0, 0, "1/3"], [0, 1, "1/6"], [1, 0, "1/6"],
    [1, 1, "1/3"], [2, 2, "1/3"], [1, 2, "1/6"], [2, 1, "1/6"]]},
  "C": {"rows": 3, "cols": 3, "entries": [[0, 0, 0.1], [2, 2, "1/10"]]},
  "K": {"cols": 3, "rows": 3, "entries": [
    [0, 0, 2], [1, 1, 2], [0, 1, -2], [1, 0, -2],
    [1, 1, 2], [2, 2, 2], [1, 2, -2], [2, 1, -2]]},
  "F": [0, "-9.81", 0],
  "F_amplitude": [0, 0, "1/2"], "omega": 3,
  "G": {"rows": 3, "cols": 2, "entries": [[0, 0, 1], [2, 1, -1]]},
  "w": [0, "1/2"],
  "e": [0, "1/2"],
  "q0": [0, "0.1", 0], "v0": [-1, -1, -1], "t0": 0, "T": 2, "h": "1/100"
})";

template <class Scalar>
void expect_same_case(const LinearCase<Scalar>& a, const LinearCase<Scalar>& b) {
  EXPECT_EQ(a.model.name, b.model.name);
  EXPECT_EQ(a.model.M, b.model.M);
  EXPECT_EQ(a.model.C, b.model.C);
  EXPECT_EQ(a.model.K, b.model.K);
  EXPECT_EQ(a.model.F, b.model.F);
  EXPECT_EQ(a.model.F_amplitude, b.model.F_amplitude);
  EXPECT_EQ(a.model.omega, b.model.omega);
  EXPECT_EQ(a.model.G, b.model.G);
  EXPECT_EQ(a.model.w, b.model.w);
  EXPECT_EQ(a.model.e, b.model.e);
  EXPECT_EQ(a.initial.t, b.initial.t);
  EXPECT_EQ(a.initial.q, b.initial.q);
  EXPECT_EQ(a.initial.v, b.initial.v);
  EXPECT_EQ(a.T, b.T);
  ASSERT_EQ(a.h.has_value(), b.h.has_value());
  if (a.h) {
    EXPECT_EQ(*a.h, *b.h);
  }
}

template <class Scalar>
LinearCase<Scalar> dense_view(const SparseLinearCase<Scalar>& c) {
  return {to_dense(c.model), c.initial, c.T, c.h};
}

template <class Scalar>
void expect_sparse_equals_dense_document() {
  const CaseDocument dense = parse_case_text(kDense), sparse = parse_case_text(kSparse);
  const LinearCase<Scalar> reference = load_linear_case<Scalar>(dense);
  expect_same_case(load_linear_case<Scalar>(sparse), reference);
  if constexpr (!is_exact_v<Scalar>) {
    const SparseLinearCase<Scalar> s = load_sparse_linear_case<Scalar>(sparse);
    expect_same_case(dense_view(s), reference);
    // Only the nonzeros are stored: 7 in M and K, 2 in C.
    EXPECT_EQ(s.model.M.nonZeros(), 7);
    EXPECT_EQ(s.model.K.nonZeros(), 7);
    EXPECT_EQ(s.model.C.nonZeros(), 2);
    // A dense document loads sparsely too.
    expect_same_case(dense_view(load_sparse_linear_case<Scalar>(dense)), reference);
  }
}

TEST(SparseCaseFile, SameModelAsTheDenseDocumentInDouble) {
  expect_sparse_equals_dense_document<double>();
}
TEST(SparseCaseFile, SameModelAsTheDenseDocumentInReal50) {
  expect_sparse_equals_dense_document<Real50>();
}
TEST(SparseCaseFile, SameModelAsTheDenseDocumentInRational) {
  expect_sparse_equals_dense_document<Rational>();
  const auto c = load_linear_case<Rational>(parse_case_text(kSparse));
  EXPECT_EQ(c.model.M(1, 1), Rational(2, 3));  // 1/3 + 1/3, summed exactly
  EXPECT_EQ(c.model.C(0, 0), Rational(1, 10));
}

TEST(SparseCaseFile, EntriesSummingToZeroAreNotStored) {
  const auto doc = parse_case_text(
      R"({"A": {"rows": 2, "cols": 3, "entries": [[0, 2, 1], [0, 2, -1], [1, 0, "1/2"]]},
          "Z": {"rows": 4, "cols": 4, "entries": []}})");
  const SparseMatrix<Rational> A = case_sparse_matrix<Rational>(doc.root["A"], "A");
  EXPECT_EQ(A.rows(), 2);
  EXPECT_EQ(A.cols(), 3);
  EXPECT_EQ(A.nonZeros(), 1);
  EXPECT_EQ(A.coeff(1, 0), Rational(1, 2));
  const SparseMatrix<double> Z = case_sparse_matrix<double>(doc.root["Z"], "Z");
  EXPECT_EQ(Z.rows(), 4);
  EXPECT_EQ(Z.nonZeros(), 0);
}

// Values that no short decimal holds: the writer prints every bit.
template <class Scalar>
SparseLinearCase<Scalar> awkward_case() {
  SparseLinearCase<Scalar> c = load_sparse_linear_case<Scalar>(parse_case_text(kSparse));
  c.model.M.coeffRef(0, 0) = Scalar(1) / 3 + Scalar(1) / 7;  // stays symmetric and SPD
  c.model.K.coeffRef(0, 1) = c.model.K.coeffRef(1, 0) = Scalar(-2) - Scalar(1) / 9;
  c.model.K.coeffRef(0, 0) = Scalar(3);
  c.model.F(1) = Scalar(-981) / 100;
  c.initial.q(1) = Scalar(1) / 10;
  c.initial.t = Scalar(1) / 3;
  c.T = Scalar(7) / 3;
  c.h = Scalar(1) / 300;
  c.model.validate();
  return c;
}

template <class Scalar>
void expect_sparse_round_trip() {
  const SparseLinearCase<Scalar> c = awkward_case<Scalar>();
  const std::string text = write_sparse_linear_case<Scalar>("awkward", c.model, c.initial, c.T, c.h,
                                                            "values with every bit set");
  const CaseDocument doc = parse_case_text(text);
  EXPECT_EQ(doc.name, "awkward");
  EXPECT_EQ(doc.root["description"], "values with every bit set");
  const SparseLinearCase<Scalar> back = load_sparse_linear_case<Scalar>(doc);
  LinearCase<Scalar> expected = dense_view(c);
  expected.model.name = "awkward";
  expect_same_case(dense_view(back), expected);
  EXPECT_EQ(back.model.M.nonZeros(), c.model.M.nonZeros());
  // And once more: the text is a fixed point.
  EXPECT_EQ(write_sparse_linear_case<Scalar>("awkward", back.model, back.initial, back.T, back.h,
                                             "values with every bit set"),
            text);
}

TEST(SparseCaseFile, WriterRoundTripsExactlyInDouble) {
  expect_sparse_round_trip<double>();
}
TEST(SparseCaseFile, WriterRoundTripsExactlyInReal50) {
  expect_sparse_round_trip<Real50>();
}

TEST(SparseCaseFile, RationalWriterIsExactFractions) {
  // A Rational sparse model is data to print (an exactly assembled model): 1/3 stays "1/3".
  SparseLinearModel<Rational> model;
  model.M.resize(2, 2);
  model.M.insert(0, 0) = Rational(1, 3);
  model.M.insert(1, 1) = Rational(2, 3);
  model.M.insert(0, 1) = Rational(1, 6);
  model.M.insert(1, 0) = Rational(1, 6);
  model.C.resize(2, 2);
  model.K.resize(2, 2);
  model.F = Vector<Rational>::Zero(2);
  model.G = Matrix<Rational>::Zero(2, 1);
  model.G(1, 0) = Rational(-1);
  model.w = Vector<Rational>::Constant(1, Rational(1, 2));
  model.e = Vector<Rational>::Constant(1, Rational(1));
  State<Rational> initial;
  initial.q = Vector<Rational>::Zero(2);
  initial.v = Vector<Rational>::Constant(2, Rational(-1, 3));
  const std::string text = write_sparse_linear_case<Rational>("pair", model, initial, Rational(1));
  EXPECT_NE(text.find("[0, 1, \"1/6\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"G\": {\"rows\": 2, \"cols\": 1, \"entries\": [\n    [1, 0, -1]"),
            std::string::npos)
      << text;
  const auto c = load_linear_case<Rational>(parse_case_text(text));
  EXPECT_EQ(c.model.M, Matrix<Rational>(model.M));
  EXPECT_EQ(c.model.G, model.G);
  EXPECT_EQ(c.model.w(0), Rational(1, 2));
  EXPECT_EQ(c.initial.v(1), Rational(-1, 3));
  EXPECT_FALSE(c.h.has_value());
}

// --- Errors -----------------------------------------------------------------------------------

// kSparse with `pointer` (a JSON pointer such as "/M/entries/3") replaced by `value` (JSON text),
// or removed when `value` is empty.
std::string sparse_with(const std::string& pointer, const std::string& value) {
  json j = json::parse(kSparse);
  const json::json_pointer p(pointer);
  if (value.empty()) {
    j[p.parent_pointer()].erase(p.back());
  } else {
    j[p] = json::parse(value);
  }
  return j.dump();
}

struct Refusal {
  std::string field;
  std::string message;
};

// Every loader of a sparse document must refuse `text` with an InputError (ModelError is one)
// naming the same field; returns it with one of the messages.
Refusal refusal(const std::string& text) {
  const std::vector<std::pair<std::string, std::function<void(const CaseDocument&)>>> loaders = {
      {"sparse double", [](const CaseDocument& d) { load_sparse_linear_case<double>(d); }},
      {"sparse Real50", [](const CaseDocument& d) { load_sparse_linear_case<Real50>(d); }},
      {"dense double", [](const CaseDocument& d) { load_linear_case<double>(d); }},
      {"dense Rational", [](const CaseDocument& d) { load_linear_case<Rational>(d); }},
  };
  Refusal first;
  for (const auto& [name, load] : loaders) {
    try {
      load(parse_case_text(text));
      ADD_FAILURE() << name << " accepted " << text;
    } catch (const InputError& e) {
      if (first.field.empty()) {
        first = {e.field(), e.what()};
      } else {
        EXPECT_EQ(e.field(), first.field) << name << ": " << e.what();
      }
    }
  }
  return first;
}

bool contains_text(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SparseCaseFile, EntryOutOfRangeNamesTheEntryAndTheIndex) {
  const Refusal row = refusal(sparse_with("/M/entries/3", "[7, 0, 1]"));
  EXPECT_EQ(row.field, "M.entries[3]");
  EXPECT_TRUE(contains_text(row.message, "i = 7")) << row.message;
  EXPECT_TRUE(contains_text(row.message, "3x3")) << row.message;
  const Refusal col = refusal(sparse_with("/K/entries/0", "[0, 3, 1]"));
  EXPECT_EQ(col.field, "K.entries[0]");
  EXPECT_TRUE(contains_text(col.message, "j = 3")) << col.message;
  const Refusal g = refusal(sparse_with("/G/entries/1", "[2, 2, -1]"));
  EXPECT_EQ(g.field, "G.entries[1]");
  EXPECT_TRUE(contains_text(g.message, "3x2")) << g.message;
}

TEST(SparseCaseFile, EntryArityIndexAndValueAreNamed) {
  EXPECT_EQ(refusal(sparse_with("/M/entries/1", "[0, 1]")).field, "M.entries[1]");
  EXPECT_EQ(refusal(sparse_with("/M/entries/1", "[0, 1, 2, 3]")).field, "M.entries[1]");
  EXPECT_EQ(refusal(sparse_with("/M/entries/1", "5")).field, "M.entries[1]");
  const Refusal negative = refusal(sparse_with("/C/entries/0", "[-1, 0, 1]"));
  EXPECT_EQ(negative.field, "C.entries[0]");
  EXPECT_TRUE(contains_text(negative.message, "-1")) << negative.message;
  EXPECT_EQ(refusal(sparse_with("/C/entries/0", "[\"1.5\", 0, 1]")).field, "C.entries[0]");
  EXPECT_EQ(refusal(sparse_with("/C/entries/0", "[0, true, 1]")).field, "C.entries[0]");
  const Refusal value = refusal(sparse_with("/M/entries/2", "[0, 1, \"abc\"]"));
  EXPECT_EQ(value.field, "M.entries[2][2]");
  EXPECT_TRUE(contains_text(value.message, "abc")) << value.message;
  EXPECT_EQ(refusal(sparse_with("/M/entries/2", "[0, 1, [1]]")).field, "M.entries[2][2]");
  EXPECT_EQ(refusal(sparse_with("/M/entries/2", "[0, 1, \"nan\"]")).field, "M.entries[2][2]");
  EXPECT_EQ(refusal(sparse_with("/M/entries", "")).field, "M.entries");
  EXPECT_EQ(refusal(sparse_with("/M/entries", "{}")).field, "M.entries");
}

TEST(SparseCaseFile, ShapeMustBePositiveIntegers) {
  EXPECT_EQ(refusal(sparse_with("/M/rows", "")).field, "M.rows");
  EXPECT_EQ(refusal(sparse_with("/M/cols", "")).field, "M.cols");
  for (const char* bad : {"0", "-3", "2.5", "\"three\"", "true", "[3]", "1e3", "100000000000"}) {
    const Refusal r = refusal(sparse_with("/K/rows", bad));
    EXPECT_EQ(r.field, "K.rows") << bad << ": " << r.message;
    EXPECT_TRUE(contains_text(r.message, "positive integer")) << r.message;
  }
  // A typo in the object is not an empty or default matrix.
  json j = json::parse(kSparse);
  j["M"]["entires"] = j["M"]["entries"];
  j["M"].erase("entries");
  EXPECT_EQ(refusal(j.dump()).field, "M.entires");
}

TEST(SparseCaseFile, SparseFlagAndMatrixFormMustAgree) {
  const Refusal flag = refusal(sparse_with("/sparse", "\"yes\""));
  EXPECT_EQ(flag.field, "sparse");
  EXPECT_TRUE(contains_text(flag.message, "yes")) << flag.message;
  EXPECT_EQ(refusal(sparse_with("/sparse", "1")).field, "sparse");
  // Dense rows in a sparse document, triplets in a dense one.
  const Refusal rows = refusal(sparse_with("/K", "[[2, -2, 0], [-2, 4, -2], [0, -2, 2]]"));
  EXPECT_EQ(rows.field, "K");
  EXPECT_TRUE(contains_text(rows.message, "sparse")) << rows.message;
  const Refusal triplets = refusal(sparse_with("/sparse", "false"));
  EXPECT_EQ(triplets.field, "M");
  EXPECT_TRUE(contains_text(triplets.message, "\"sparse\": true")) << triplets.message;
  EXPECT_EQ(refusal(sparse_with("/M", "")).field, "M");
}

TEST(SparseCaseFile, DimensionsMustAgreeWithTheModel) {
  EXPECT_EQ(refusal(sparse_with("/q0", "[0, 0]")).field, "q0");
  EXPECT_EQ(refusal(sparse_with("/v0", "[0, 0, 0, 0]")).field, "v0");
  EXPECT_EQ(refusal(sparse_with("/K/rows", "4")).field, "K");
  EXPECT_EQ(refusal(sparse_with("/G/rows", "4")).field, "G");
  EXPECT_EQ(refusal(sparse_with("/F", "[0, 0]")).field, "F");
  // A non-square M.
  json j = json::parse(kSparse);
  j["M"]["cols"] = 4;
  EXPECT_EQ(refusal(j.dump()).field, "M");
}

TEST(SparseCaseFile, AsymmetricMassIsRefusedNamingM) {
  // The upper triangle only: symmetric matrices list both triangles.
  json j = json::parse(kSparse);
  json upper = json::array();
  for (const auto& entry : j["M"]["entries"])
    if (entry[0].get<int>() <= entry[1].get<int>()) upper.push_back(entry);
  j["M"]["entries"] = upper;
  const Refusal r = refusal(j.dump());
  EXPECT_EQ(r.field, "M");
  EXPECT_TRUE(contains_text(r.message, "symmetric")) << r.message;
}

TEST(SparseCaseFile, IndefiniteMassIsRefusedNamingM) {
  const Refusal r = refusal(sparse_with("/M/entries/0", "[1, 1, \"-1\"]"));  // M(1,1) = -2/3
  EXPECT_EQ(r.field, "M");
  EXPECT_TRUE(contains_text(r.message, "positive definite")) << r.message;
  EXPECT_EQ(refusal(sparse_with("/e", "[0, 2]")).field, "e[1]");
}

// A large sparse document loads sparsely (diagonal M: no dense copy, instant), and the dense
// loader refuses it before reading its entries, pointing at the sparse-capable commands.
TEST(SparseCaseFile, LargeDocumentIsSparseOnly) {
  const Index n = 5000;
  json entries = json::array();
  for (Index i = 0; i < n; ++i) entries.push_back({i, i, "1/2"});
  json j = {{"sparse", true},
            {"M", {{"rows", n}, {"cols", n}, {"entries", entries}}},
            {"q0", std::vector<int>(n, 0)},
            {"v0", std::vector<int>(n, 1)},
            {"T", 1}};
  const CaseDocument doc = parse_case_text(j.dump());
  const auto c = load_sparse_linear_case<double>(doc);
  EXPECT_EQ(c.model.dofs(), n);
  EXPECT_EQ(c.model.M.nonZeros(), n);
  EXPECT_EQ(c.model.contacts(), 0);
  for (const auto& load : std::vector<std::function<void()>>{
           [&] { load_linear_case<double>(doc); }, [&] { load_linear_case<Rational>(doc); }}) {
    try {
      load();
      ADD_FAILURE() << "a dense copy of 5000 dofs was made";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "M");
      EXPECT_TRUE(contains_text(e.what(), "5000")) << e.what();
      EXPECT_TRUE(contains_text(e.what(), "4096")) << e.what();
      EXPECT_TRUE(contains_text(e.what(), "sparse")) << e.what();
    }
  }
}

}  // namespace
}  // namespace nsh
