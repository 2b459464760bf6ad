#pragma once
// Internal to the case-file readers and writers (case_file_linear.cpp, case_file_sparse.cpp):
// the text of numbers as a document holds them and as a writer must print them, and the fields
// of the linear family shared by its dense and sparse forms.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/json_limits.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>

#include <fmt/format.h>

#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace nsh::detail {

using json = nlohmann::json;

// A value for a message, bounded in length and in work whatever its depth (never dump()).
inline std::string describe(const json& node) {
  return limits::describe_json(node);
}

// The source text of a number node: a string from parse_case_text, or a JSON number in a
// document built in code (its integer text is exact, a double's dump is its shortest form).
inline std::string number_text(const json& node, const std::string& field) {
  if (node.is_null()) throw InputError(field, "is missing (a number is required)");
  if (node.is_string()) return node.get<std::string>();
  if (node.is_number()) return node.dump();
  throw InputError(field, "expected a number (or a string such as \"1/3\"), got " + describe(node));
}

inline const json& field_of(const json& root, const std::string& key) {
  static const json missing;
  const auto it = root.find(key);
  return it == root.end() ? missing : *it;
}

inline bool present(const json& root, const std::string& key) {
  return root.find(key) != root.end();
}

// The fields of the linear family; anything else is almost certainly a typo ("k" for "K")
// that would silently leave a default in place. Metadata may use these keys or start with '_'.
inline const std::set<std::string>& linear_fields() {
  static const std::set<std::string> fields = {
      "name",  "family", "sparse", "M",           "C",       "K",         "F",     "F_amplitude",
      "omega", "G",      "G_T",    "mu",          "w",       "e",         "q0",    "v0",
      "t0",    "T",      "h",      "description", "comment", "reference", "facts", "tags"};
  return fields;
}

// The family and the keys of a linear document; InputError naming the first unknown key.
inline void check_linear_document(const CaseDocument& document) {
  if (document.family != "linear")
    throw InputError("family",
                     "expected the \"linear\" family here, got \"" + document.family + "\"");
  for (const auto& [key, value] : document.root.items())
    if (!linear_fields().count(key) && (key.empty() || key[0] != '_')) {
      std::string accepted;
      for (const auto& f : linear_fields()) accepted += (accepted.empty() ? "" : ", ") + f;
      throw InputError(key.empty() ? "\"\"" : limits::describe_key(key),
                       "unknown field " + limits::describe_key(key) +
                           " of a linear case; accepted: " + accepted +
                           " (and metadata keys starting with '_')");
    }
}

// Whether M, C, K (and G) are given as triplets ("sparse": true). InputError naming "sparse"
// when it is not a boolean.
inline bool sparse_document(const json& root) {
  const json& flag = field_of(root, "sparse");
  if (flag.is_null()) return false;
  if (!flag.is_boolean())
    throw InputError("sparse", "expected true or false, got " + describe(flag));
  return flag.get<bool>();
}

// load_linear_case builds no dense model of a sparse document above this many degrees of
// freedom (to_dense's default bound).
inline constexpr Index max_dense_dofs = limits::max_dense_dofs;

// The "rows" and "cols" of a sparse matrix object, checked (case_file_sparse.cpp).
std::pair<Index, Index> sparse_shape(const json& node, const std::string& field);

// The number of degrees of freedom a linear document declares, with every other declared size
// checked against it before any matrix is allocated: a sparse "rows": 10000000 with two
// entries, or a sparse G of 10^7 x 10^7, is refused here by its text, not after gigabytes of
// zero columns, pivots and default vectors. q0 and v0 must list n entries (their lengths are
// read without parsing a number), the sparse C and K must be n x n, G must have n rows and at
// most limits::max_contacts columns. Returns n (0 when M is not a list or an object: the
// reader's own error names it).
inline Index declared_dofs(const json& root, bool sparse) {
  const json& M = field_of(root, "M");
  Index n = 0;
  if (sparse) {
    const auto [rows, cols] = sparse_shape(M, "M");
    if (rows != cols)
      throw InputError("M", fmt::format("expected a square matrix, got {}x{}", rows, cols));
    n = rows;
  } else if (M.is_array()) {
    n = static_cast<Index>(M.size());
  } else {
    return 0;
  }
  for (const char* key : {"q0", "v0"}) {
    const json& x = field_of(root, key);
    if (x.is_array() && static_cast<Index>(x.size()) != n)
      throw InputError(
          key, fmt::format("expected {} entries (one per degree of freedom), got {}", n, x.size()));
  }
  if (sparse)
    for (const char* key : {"C", "K"})
      if (present(root, key)) {
        const auto [rows, cols] = sparse_shape(field_of(root, key), key);
        if (rows != n || cols != n)
          throw InputError(key, fmt::format("expected a {}x{} matrix (the size of M), got {}x{}", n,
                                            n, rows, cols));
      }
  const json& G = field_of(root, "G");
  if (sparse && G.is_object()) {
    const auto [rows, cols] = sparse_shape(G, "G");
    if (rows != n)
      throw InputError(
          "G", fmt::format("expected {} rows (one per degree of freedom), got {}", n, rows));
    limits::check_contacts(rows, cols, "G");
  }
  return n;
}

// Text of one scalar that parse_number<Scalar> reads back to exactly the same value: the
// shortest full-precision decimal when it round-trips, otherwise the exact fraction.
template <class Scalar>
std::string exact_text(const Scalar& x) {
  if constexpr (is_exact_v<Scalar>) {
    return format_scalar(x);
  } else {
    // A case file holds finite numbers only (parse_number refuses "inf"): a writer handed one
    // is an internal failure, not bad input (and Rational(inf) would throw Boost's "Cannot
    // convert a non-finite number to an integer." with no field).
    if (!is_finite(x))
      throw std::domain_error("writing a case file: the value " + format_scalar(x) +
                              " is not finite");
    std::string text;
    if constexpr (std::is_same_v<Scalar, double>) {
      text = fmt::format("{:.17g}", x);
    } else {
      text = x.str(std::numeric_limits<Scalar>::max_digits10, std::ios_base::fmtflags(0));
    }
    if (parse_number<Scalar>(text, "value") == x) return text;
    return scalar_cast<Rational>(x).str();  // every binary float is a dyadic rational
  }
}

// A JSON token for a number: bare when the text is a JSON number, quoted otherwise ("1/3").
inline std::string number_token(const std::string& text) {
  const bool plain = text.find('/') == std::string::npos;
  return plain ? text : "\"" + text + "\"";
}

template <class Scalar>
std::string vector_token(const Vector<Scalar>& x) {
  std::string out = "[";
  for (Index i = 0; i < x.size(); ++i) out += (i ? ", " : "") + number_token(exact_text(x(i)));
  return out + "]";
}

template <class Scalar>
std::string matrix_token(const Matrix<Scalar>& A) {
  std::string out = "[";
  for (Index i = 0; i < A.rows(); ++i) {
    out += i ? ",\n        [" : "[";
    for (Index j = 0; j < A.cols(); ++j) out += (j ? ", " : "") + number_token(exact_text(A(i, j)));
    out += "]";
  }
  return out + "]";
}

// The initial state's sizes against n degrees of freedom, for either model type (its entries
// are finite already: parse_number refuses nan and inf).
/// The end of a written linear case file, from "w" to the closing brace: the fields the dense
/// and the sparse writers share.
template <class Scalar>
std::string contacts_state_and_horizon(const Vector<Scalar>& w, const Vector<Scalar>& e,
                                       const State<Scalar>& initial, const Scalar& T,
                                       const std::optional<Scalar>& h) {
  std::string out;
  out += "  \"w\": " + vector_token<Scalar>(w) + ",\n";
  out += "  \"e\": " + vector_token<Scalar>(e) + ",\n";
  out += "  \"q0\": " + vector_token<Scalar>(initial.q) + ",\n";
  out += "  \"v0\": " + vector_token<Scalar>(initial.v) + ",\n";
  out += "  \"t0\": " + number_token(exact_text(initial.t)) + ",\n";
  if (h) out += "  \"h\": " + number_token(exact_text(*h)) + ",\n";
  out += "  \"T\": " + number_token(exact_text(T)) + "\n}\n";
  return out;
}

template <class Scalar>
void check_initial_state(Index n, const State<Scalar>& state) {
  if (state.q.size() != n)
    throw InputError("q0", fmt::format("expected {} entries (one per degree of freedom), got {}", n,
                                       state.q.size()));
  if (state.v.size() != n)
    throw InputError("v0", fmt::format("expected {} entries (one per degree of freedom), got {}", n,
                                       state.v.size()));
}

// The friction fields G_T (n x m d, contact-major) and mu (one number, or one per contact) of a
// dense linear document, checked here by their text so that each error names the field and the
// value as written ("mu[1]: -1/2 is negative"); the model's validate() repeats the checks for
// models built in code. The sparse format is frictionless: either field there is refused.
inline void refuse_sparse_friction(const json& root) {
  for (const char* key : {"G_T", "mu"})
    if (present(root, key))
      throw InputError(key,
                       "is a friction field, and the sparse case format (\"sparse\": true) is "
                       "frictionless: give a frictional model as a dense case file");
}

template <class Scalar>
void read_friction(const json& root, LinearModel<Scalar>& model) {
  const Index n = model.M.rows();
  const Index m = model.G.cols();
  if (present(root, "G_T")) {
    const json& node = field_of(root, "G_T");
    if (node.is_object())
      throw InputError("G_T",
                       "is an object: give the tangent directions as a list of rows [[...], ...]");
    model.G_T = case_matrix<Scalar>(node, "G_T");
    // "G_T": [] is the frictionless model, as "G": [] is the model without contacts.
    if (model.G_T.rows() == 0) model.G_T = Matrix<Scalar>::Zero(n, 0);
  }
  const Index columns = model.G_T.cols();
  if (columns != 0) {
    if (model.G_T.rows() != n)
      throw InputError("G_T", fmt::format("expected {} rows (one per degree of freedom), got {}", n,
                                          model.G_T.rows()));
    if (m == 0)
      throw InputError("G_T", fmt::format("{} columns of tangent directions, but the model has "
                                          "no contacts (G has no columns)",
                                          columns));
    if (columns % m != 0)
      throw InputError("G_T", fmt::format("{} columns is not a multiple of m = {} (d tangent "
                                          "columns per contact, contact-major)",
                                          columns, m));
    if (columns / m > 2)
      throw InputError("G_T", fmt::format("{} columns for m = {} contacts is d = {} tangent "
                                          "directions per contact; d must be 1 (plane) or 2 "
                                          "(space)",
                                          columns, m, columns / m));
  }
  if (!present(root, "mu")) {
    if (columns != 0)
      throw InputError("mu",
                       "is missing: G_T gives tangent directions, so a friction "
                       "coefficient is required (one number, or one per contact)");
    return;
  }
  if (columns == 0)
    throw InputError("mu",
                     "is given without G_T: a friction coefficient needs the contacts' "
                     "tangent directions (the columns of G_T)");
  const json& node = field_of(root, "mu");
  const auto coefficient = [&](const json& entry, const std::string& field) {
    const Scalar value = case_number<Scalar>(entry, field);
    if (value < Scalar(0))
      throw InputError(
          field, number_text(entry, field) + " is negative: a friction coefficient must be >= 0");
    return value;
  };
  if (node.is_array()) {
    if (static_cast<Index>(node.size()) != m)
      throw InputError("mu", fmt::format("expected {} entries (one per contact) or one number, "
                                         "got {}",
                                         m, node.size()));
    model.mu.resize(m);
    for (Index a = 0; a < m; ++a)
      model.mu(a) = coefficient(node[static_cast<std::size_t>(a)], fmt::format("mu[{}]", a));
  } else {
    model.mu = Vector<Scalar>::Constant(m, coefficient(node, "mu"));
  }
}

// Everything of a linear case but M, C and K, which the caller has set (dense or sparse): G
// (a list of rows, or triplets in a sparse document), F, the harmonic force, w, e, then the
// defaults and the model's validation, then q0, v0, t0, T and h.
template <class Scalar, class Case>
void read_linear_case_rest(const json& root, bool sparse, Case& out) {
  auto& model = out.model;
  const Index n = model.M.rows();
  if (present(root, "F")) model.F = case_vector<Scalar>(field_of(root, "F"), "F");
  if (present(root, "G")) {
    const json& G = field_of(root, "G");
    if (sparse && G.is_object()) {
      model.G = Matrix<Scalar>(case_sparse_matrix<Scalar>(G, "G"));
    } else {
      model.G = case_matrix<Scalar>(G, "G");
    }
    // "G": [] is the model without contacts.
    if (model.G.rows() == 0) model.G = Matrix<Scalar>::Zero(n, 0);
    limits::check_contacts(model.G.rows(), model.G.cols(), "G");
  } else {
    model.G = Matrix<Scalar>::Zero(n, 0);
  }
  const Index m = model.G.cols();
  if (present(root, "w")) model.w = case_vector<Scalar>(field_of(root, "w"), "w");
  const json& e = field_of(root, "e");
  if (e.is_array()) {
    model.e = case_vector<Scalar>(e, "e");
  } else if (!e.is_null()) {
    model.e = Vector<Scalar>::Constant(m, case_number<Scalar>(e, "e"));
  } else if (m > 0) {
    throw InputError("e", fmt::format("is missing: the model has {} contact(s) and needs a "
                                      "restitution coefficient (one number or one per contact)",
                                      m));
  }
  if (sparse) {
    refuse_sparse_friction(root);
  } else if constexpr (std::is_same_v<std::decay_t<decltype(model)>, LinearModel<Scalar>>) {
    read_friction<Scalar>(root, model);
  }
  if (present(root, "F_amplitude")) {
    model.F_amplitude = case_vector<Scalar>(field_of(root, "F_amplitude"), "F_amplitude");
    model.omega = case_number<Scalar>(field_of(root, "omega"), "omega");
  } else if (present(root, "omega")) {
    model.omega = case_number<Scalar>(field_of(root, "omega"), "omega");
  }
  fill_defaults(model);
  model.validate();

  out.initial.t = present(root, "t0") ? case_number<Scalar>(field_of(root, "t0"), "t0") : Scalar(0);
  out.initial.q = case_vector<Scalar>(field_of(root, "q0"), "q0");
  out.initial.v = case_vector<Scalar>(field_of(root, "v0"), "v0");
  check_initial_state<Scalar>(n, out.initial);

  out.T = case_number<Scalar>(field_of(root, "T"), "T");
  if (out.T < out.initial.t)
    throw InputError(
        "T", "horizon " + format_scalar(out.T) + " is before t0 = " + format_scalar(out.initial.t));
  if (present(root, "h")) {
    const Scalar h = case_number<Scalar>(field_of(root, "h"), "h");
    if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
    out.h = h;
  }
}

}  // namespace nsh::detail
