// Number readers and the linear family of case files (DESIGN.md "The case file").
#include <nsh/case_file.hpp>
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>

#include <fmt/format.h>

#include <set>

namespace nsh {
namespace {

using json = nlohmann::json;

std::string describe(const json& node) {
  std::string text = node.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return std::string(node.type_name()) + " " + text;
}

// The source text of a number node: a string from parse_case_text, or a JSON number in a
// document built in code (its integer text is exact, a double's dump is its shortest form).
std::string number_text(const json& node, const std::string& field) {
  if (node.is_null()) throw InputError(field, "is missing (a number is required)");
  if (node.is_string()) return node.get<std::string>();
  if (node.is_number()) return node.dump();
  throw InputError(field, "expected a number (or a string such as \"1/3\"), got " + describe(node));
}

const json& field_of(const json& root, const std::string& key) {
  static const json missing;
  const auto it = root.find(key);
  return it == root.end() ? missing : *it;
}

bool present(const json& root, const std::string& key) {
  return root.find(key) != root.end();
}

// The fields of the linear family; anything else is almost certainly a typo ("k" for "K")
// that would silently leave a default in place. Metadata may use these keys or start with '_'.
const std::set<std::string>& linear_fields() {
  static const std::set<std::string> fields = {
      "name",  "family", "M",           "C",       "K",         "F",     "F_amplitude",
      "omega", "G",      "w",           "e",       "q0",        "v0",    "t0",
      "T",     "h",      "description", "comment", "reference", "facts", "tags"};
  return fields;
}

// Text of one scalar that parse_number<Scalar> reads back to exactly the same value: the
// shortest full-precision decimal when it round-trips, otherwise the exact fraction.
template <class Scalar>
std::string exact_text(const Scalar& x) {
  if constexpr (is_exact_v<Scalar>) {
    return format_scalar(x);
  } else {
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
std::string number_token(const std::string& text) {
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

}  // namespace

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
  if (document.family != "linear")
    throw InputError("family",
                     "expected the \"linear\" family here, got \"" + document.family + "\"");
  for (const auto& [key, value] : root.items())
    if (!linear_fields().count(key) && (key.empty() || key[0] != '_')) {
      std::string accepted;
      for (const auto& f : linear_fields()) accepted += (accepted.empty() ? "" : ", ") + f;
      throw InputError(key, "unknown field of a linear case; accepted: " + accepted +
                                " (and metadata keys starting with '_')");
    }

  LinearCase<Scalar> out;
  LinearModel<Scalar>& model = out.model;
  model.name = document.name;
  model.M = case_matrix<Scalar>(field_of(root, "M"), "M");
  const Index n = model.M.rows();
  if (present(root, "C")) model.C = case_matrix<Scalar>(field_of(root, "C"), "C");
  if (present(root, "K")) model.K = case_matrix<Scalar>(field_of(root, "K"), "K");
  if (present(root, "F")) model.F = case_vector<Scalar>(field_of(root, "F"), "F");
  if (present(root, "G")) {
    model.G = case_matrix<Scalar>(field_of(root, "G"), "G");
    // "G": [] is the model without contacts.
    if (model.G.rows() == 0) model.G = Matrix<Scalar>::Zero(n, 0);
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
  validate_state(model, out.initial);

  out.T = case_number<Scalar>(field_of(root, "T"), "T");
  if (out.T < out.initial.t)
    throw InputError(
        "T", "horizon " + format_scalar(out.T) + " is before t0 = " + format_scalar(out.initial.t));
  if (present(root, "h")) {
    const Scalar h = case_number<Scalar>(field_of(root, "h"), "h");
    if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
    out.h = h;
  }
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
  out += "  \"w\": " + vector_token<Scalar>(model.w) + ",\n";
  out += "  \"e\": " + vector_token<Scalar>(model.e) + ",\n";
  out += "  \"q0\": " + vector_token<Scalar>(initial.q) + ",\n";
  out += "  \"v0\": " + vector_token<Scalar>(initial.v) + ",\n";
  out += "  \"t0\": " + number_token(exact_text(initial.t)) + ",\n";
  if (h) out += "  \"h\": " + number_token(exact_text(*h)) + ",\n";
  out += "  \"T\": " + number_token(exact_text(T)) + "\n}\n";
  return out;
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
