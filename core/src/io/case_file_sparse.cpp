// Sparse linear case files: triplet matrices, the sparse loader and the sparse writer (the
// format is in nsh/io/case_file.hpp).
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/limits.hpp>
#include <nsh/model/sparse_model.hpp>

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "case_file_text.hpp"

namespace nsh {

using json = nlohmann::json;
using detail::describe;
using detail::exact_text;
using detail::field_of;
using detail::number_text;
using detail::number_token;
using detail::vector_token;

namespace {

// A sparse matrix larger than this is a typo or a hostile file: Eigen allocates cols + 1
// column starts before reading a single entry.
constexpr Index max_sparse_dimension = limits::max_sparse_dimension;

// A non-negative integer written as decimal digits (a JSON integer or a string of digits), or
// nullopt; "2.0", "1e3" and "1/1" are not indices.
std::optional<Index> digits_value(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  Index value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

Index dimension_of(const json& node, const std::string& field) {
  if (node.is_null())
    throw InputError(field, "is missing (a positive integer: the matrix's size is required)");
  const auto value =
      node.is_string() || node.is_number() ? digits_value(number_text(node, field)) : std::nullopt;
  if (!value || *value < 1 || *value > max_sparse_dimension)
    throw InputError(field, fmt::format("expected a positive integer (at most {}), got {}",
                                        max_sparse_dimension, describe(node)));
  return *value;
}

// Entry `field` = [i, j, value]: index `position` (0: i, 1: j) against its bound.
Index index_of(const json& node, const std::string& field, int position, Index rows, Index cols) {
  const char* name = position == 0 ? "row index i" : "column index j";
  const char* letter = position == 0 ? "i" : "j";
  const Index bound = position == 0 ? rows : cols;
  if (!node.is_string() && !node.is_number())
    throw InputError(field, fmt::format("{} must be an integer, got {}", name, describe(node)));
  const std::string text = number_text(node, field);
  const auto value = digits_value(text);
  if (!value)
    throw InputError(
        field, fmt::format("{} must be a non-negative integer (0-based), got {}", name, text));
  if (*value >= bound)
    throw InputError(field, fmt::format("{} = {} is out of range for a {}x{} matrix (0 <= {} < {})",
                                        name, *value, rows, cols, letter, bound));
  return *value;
}

template <class Scalar>
std::string triplets_token(const SparseMatrix<Scalar>& A) {
  // Row by row, as a reader scans a matrix.
  const Eigen::SparseMatrix<Scalar, Eigen::RowMajor> R = A;
  std::string out = fmt::format("{{\"rows\": {}, \"cols\": {}, \"entries\": [", A.rows(), A.cols());
  bool first = true;
  for (Index i = 0; i < R.outerSize(); ++i)
    for (typename Eigen::SparseMatrix<Scalar, Eigen::RowMajor>::InnerIterator it(R, i); it; ++it) {
      out += first ? "\n    " : ",\n    ";
      first = false;
      out += fmt::format("[{}, {}, {}]", it.row(), it.col(),
                         number_token(exact_text(Scalar(it.value()))));
    }
  return out + (first ? "]}" : "\n  ]}");
}

}  // namespace

std::pair<Index, Index> detail::sparse_shape(const json& node, const std::string& field) {
  if (node.is_null())
    throw InputError(field,
                     "is missing (a sparse matrix {\"rows\": n, \"cols\": n, \"entries\": "
                     "[[i, j, value], ...]} is required)");
  if (!node.is_object())
    throw InputError(field,
                     "this case file is sparse (\"sparse\": true): expected "
                     "{\"rows\": n, \"cols\": n, \"entries\": [[i, j, value], ...]}, got " +
                         describe(node));
  for (const auto& [key, value] : node.items())
    if (key != "rows" && key != "cols" && key != "entries")
      throw InputError(field + "." + limits::describe_key(key),
                       "unknown field of a sparse matrix; accepted: rows, cols, entries");
  return {dimension_of(field_of(node, "rows"), field + ".rows"),
          dimension_of(field_of(node, "cols"), field + ".cols")};
}

template <class Scalar>
SparseMatrix<Scalar> case_sparse_matrix(const json& node, const std::string& field) {
  const auto [rows, cols] = detail::sparse_shape(node, field);
  const std::string entries_field = field + ".entries";
  const json& entries = field_of(node, "entries");
  if (entries.is_null())
    throw InputError(entries_field,
                     "is missing (a list of [i, j, value], empty for a zero matrix)");
  if (!entries.is_array())
    throw InputError(entries_field, "expected a list of [i, j, value], got " + describe(entries));
  std::vector<Eigen::Triplet<Scalar>> triplets;
  triplets.reserve(entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const json& entry = entries[k];
    const std::string name = fmt::format("{}[{}]", entries_field, k);
    if (!entry.is_array() || entry.size() != 3)
      throw InputError(name, "expected [i, j, value] (three items), got " + describe(entry));
    const Index i = index_of(entry[0], name, 0, rows, cols);
    const Index j = index_of(entry[1], name, 1, rows, cols);
    triplets.emplace_back(static_cast<int>(i), static_cast<int>(j),
                          case_number<Scalar>(entry[2], name + "[2]"));
  }
  SparseMatrix<Scalar> A(rows, cols);
  A.setFromTriplets(triplets.begin(), triplets.end());  // duplicates summed
  // The stored pattern is the nonzero pattern (an entry that sums to zero is not one).
  A.prune([](const auto&, const auto&, const Scalar& value) { return value != Scalar(0); });
  return A;
}

template <class Scalar>
SparseLinearCase<Scalar> load_sparse_linear_case(const CaseDocument& document) {
  const json& root = document.root;
  detail::check_linear_document(document);
  SparseLinearCase<Scalar> out;
  if (!detail::sparse_document(root)) {
    // A dense document is small by construction (its text holds every entry).
    LinearCase<Scalar> dense = load_linear_case<Scalar>(document);
    // The sparse model has no friction fields: converting would drop them silently.
    if (dense.model.has_friction())
      throw InputError("mu",
                       "the model has Coulomb friction (G_T, mu > 0), and the sparse "
                       "model this command reads (nsh/model/sparse_model.hpp, e.g. the "
                       "event-driven reference of nsh events) is frictionless");
    return {to_sparse(dense.model), dense.initial, dense.T, dense.h};
  }
  detail::declared_dofs(root, true);  // every declared size against n, before allocating
  SparseLinearModel<Scalar>& model = out.model;
  model.name = document.name;
  model.M = case_sparse_matrix<Scalar>(field_of(root, "M"), "M");
  if (detail::present(root, "C")) model.C = case_sparse_matrix<Scalar>(field_of(root, "C"), "C");
  if (detail::present(root, "K")) model.K = case_sparse_matrix<Scalar>(field_of(root, "K"), "K");
  detail::read_linear_case_rest<Scalar>(root, true, out);
  return out;
}

template <class Scalar>
std::string write_sparse_linear_case(const std::string& name,
                                     const SparseLinearModel<Scalar>& model,
                                     const State<Scalar>& initial, const Scalar& T,
                                     const std::optional<Scalar>& h,
                                     const std::string& description) {
  std::string out = "{\n";
  out += "  \"name\": " + json(name).dump() + ",\n";
  if (!description.empty()) out += "  \"description\": " + json(description).dump() + ",\n";
  out += "  \"family\": \"linear\",\n";
  out += "  \"sparse\": true,\n";
  out += "  \"M\": " + triplets_token<Scalar>(model.M) + ",\n";
  out += "  \"C\": " + triplets_token<Scalar>(model.C) + ",\n";
  out += "  \"K\": " + triplets_token<Scalar>(model.K) + ",\n";
  out += "  \"F\": " + vector_token<Scalar>(model.F) + ",\n";
  if (model.F_amplitude.size() != 0) {
    out += "  \"F_amplitude\": " + vector_token<Scalar>(model.F_amplitude) + ",\n";
    out += "  \"omega\": " + number_token(exact_text(model.omega)) + ",\n";
  }
  // "G": [] is the model without contacts (a sparse matrix has at least one column).
  out += "  \"G\": " +
         (model.G.cols() == 0 ? std::string("[]") : triplets_token<Scalar>(sparse_of(model.G))) +
         ",\n";
  return out + detail::contacts_state_and_horizon<Scalar>(model.w, model.e, initial, T, h);
}

#define NSH_INSTANTIATE_SPARSE_CASE_FILE(S)                                        \
  template SparseMatrix<S> case_sparse_matrix<S>(const json&, const std::string&); \
  template std::string write_sparse_linear_case<S>(                                \
      const std::string&, const SparseLinearModel<S>&, const State<S>&, const S&,  \
      const std::optional<S>&, const std::string&);
NSH_INSTANTIATE_SPARSE_CASE_FILE(double)
NSH_INSTANTIATE_SPARSE_CASE_FILE(Real50)
NSH_INSTANTIATE_SPARSE_CASE_FILE(Rational)
#undef NSH_INSTANTIATE_SPARSE_CASE_FILE

template SparseLinearCase<double> load_sparse_linear_case<double>(const CaseDocument&);
template SparseLinearCase<Real50> load_sparse_linear_case<Real50>(const CaseDocument&);

}  // namespace nsh
