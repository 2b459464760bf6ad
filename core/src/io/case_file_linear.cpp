// Number readers and the linear family of case files (docs/case-files.md).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>

#include <fmt/format.h>

#include "case_file_text.hpp"

namespace nsh {

using json = nlohmann::json;
using detail::describe;
using detail::exact_text;
using detail::field_of;
using detail::matrix_token;
using detail::number_text;
using detail::number_token;
using detail::present;
using detail::vector_token;

template <class Scalar>
Scalar case_number(const json& node, const std::string& field) {
  return parse_number<Scalar>(number_text(node, field), field);
}

template <class Scalar>
Vector<Scalar> case_vector(const json& node, const std::string& field) {
  if (node.is_null()) throw InputError(field, "is missing (a list of numbers is required)");
  if (!node.is_array())
    throw InputError(field, "expected a list of numbers [a, b, ...], got " + describe(node));
  Vector<Scalar> x(static_cast<Index>(node.size()));
  for (std::size_t i = 0; i < node.size(); ++i)
    x(static_cast<Index>(i)) = case_number<Scalar>(node[i], fmt::format("{}[{}]", field, i));
  return x;
}

template <class Scalar>
Matrix<Scalar> case_matrix(const json& node, const std::string& field) {
  if (node.is_null()) throw InputError(field, "is missing (a matrix [[...], ...] is required)");
  if (!node.is_array())
    throw InputError(field,
                     "expected a matrix as a list of rows [[...], ...], got " + describe(node));
  const std::size_t rows = node.size();
  std::size_t cols = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const json& row = node[i];
    if (!row.is_array())
      throw InputError(fmt::format("{}[{}]", field, i),
                       "expected a row [a, b, ...] of the matrix, got " + describe(row));
    if (i == 0) cols = row.size();
    if (row.size() != cols)
      throw InputError(fmt::format("{}[{}]", field, i),
                       fmt::format("ragged matrix: row {} has {} entries but row 0 has {}", i,
                                   row.size(), cols));
  }
  Matrix<Scalar> A(static_cast<Index>(rows), static_cast<Index>(cols));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      A(static_cast<Index>(i), static_cast<Index>(j)) =
          case_number<Scalar>(node[i][j], fmt::format("{}[{}][{}]", field, i, j));
  return A;
}

template <class Scalar>
LinearCase<Scalar> load_linear_case(const CaseDocument& document) {
  const json& root = document.root;
  detail::check_linear_document(document);
  const bool sparse = detail::sparse_document(root);
  const Index n = detail::declared_dofs(root, sparse);
  if (n > detail::max_dense_dofs)
    throw InputError("M", fmt::format("the {} case has {} degrees of freedom; a dense copy "
                                      "is refused above {}: use a command that reads sparse "
                                      "models (nsh events) (docs/limits.md)",
                                      sparse ? "sparse" : "dense", n, detail::max_dense_dofs));
  limits::check_dense_dofs(n, scalar_name<Scalar>(), "M");
  if (sparse) {
    if constexpr (!is_exact_v<Scalar>) {
      // The sparse validation (LDL^T pivots, O(n) on a banded model) instead of the dense
      // O(n^3) elimination; the model and its checks are the same.
      SparseLinearCase<Scalar> s = load_sparse_linear_case<Scalar>(document);
      return {to_dense(s.model, detail::max_dense_dofs), s.initial, s.T, s.h};
    }
  }
  LinearCase<Scalar> out;
  LinearModel<Scalar>& model = out.model;
  model.name = document.name;
  const auto matrix = [&](const std::string& key) {
    const json& node = field_of(root, key);
    if (sparse) return Matrix<Scalar>(case_sparse_matrix<Scalar>(node, key));
    if (node.is_object())
      throw InputError(key,
                       "is an object, but this case file is dense: give the matrix as a list "
                       "of rows [[...], ...], or set \"sparse\": true for triplets "
                       "{\"rows\", \"cols\", \"entries\"}");
    return case_matrix<Scalar>(node, key);
  };
  model.M = matrix("M");
  if (present(root, "C")) model.C = matrix("C");
  if (present(root, "K")) model.K = matrix("K");
  detail::read_linear_case_rest<Scalar>(root, sparse, out);
  return out;
}

template <class Scalar>
std::string write_linear_case(const std::string& name, const LinearModel<Scalar>& model,
                              const State<Scalar>& initial, const Scalar& T,
                              const std::optional<Scalar>& h) {
  std::string out = "{\n";
  out += "  \"name\": " + json(name).dump() + ",\n";
  out += "  \"family\": \"linear\",\n";
  out += "  \"M\": " + matrix_token<Scalar>(model.M) + ",\n";
  out += "  \"C\": " + matrix_token<Scalar>(model.C) + ",\n";
  out += "  \"K\": " + matrix_token<Scalar>(model.K) + ",\n";
  out += "  \"F\": " + vector_token<Scalar>(model.F) + ",\n";
  if (model.F_amplitude.size() != 0) {
    out += "  \"F_amplitude\": " + vector_token<Scalar>(model.F_amplitude) + ",\n";
    out += "  \"omega\": " + number_token(exact_text(model.omega)) + ",\n";
  }
  out += "  \"G\": " + matrix_token<Scalar>(model.G) + ",\n";
  // Only a frictional model writes the friction fields, so a frictionless file is written
  // byte for byte as before they existed.
  if (model.G_T.cols() != 0) {
    out += "  \"G_T\": " + matrix_token<Scalar>(model.G_T) + ",\n";
    out += "  \"mu\": " + vector_token<Scalar>(model.mu) + ",\n";
  }
  return out + detail::contacts_state_and_horizon<Scalar>(model.w, model.e, initial, T, h);
}

#define NSH_INSTANTIATE_CASE_FILE(S)                                                   \
  template S case_number<S>(const json&, const std::string&);                          \
  template Vector<S> case_vector<S>(const json&, const std::string&);                  \
  template Matrix<S> case_matrix<S>(const json&, const std::string&);                  \
  template LinearCase<S> load_linear_case<S>(const CaseDocument&);                     \
  template std::string write_linear_case<S>(const std::string&, const LinearModel<S>&, \
                                            const State<S>&, const S&, const std::optional<S>&);
NSH_INSTANTIATE_CASE_FILE(double)
NSH_INSTANTIATE_CASE_FILE(Real50)
NSH_INSTANTIATE_CASE_FILE(Rational)
#undef NSH_INSTANTIATE_CASE_FILE

}  // namespace nsh
