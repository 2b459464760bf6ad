// The "nonholonomic" family of case files (nsh/io/nonholonomic_case_file.hpp).
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/limits.hpp>
#include <nsh/nonholonomic/knife_edge.hpp>
#include <nsh/nonholonomic/rolling_disk.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "case_file_text.hpp"

namespace nsh {
namespace {

using json = nlohmann::json;
using detail::field_of;
using detail::present;

const std::set<std::string>& nonholonomic_fields() {
  static const std::set<std::string> fields = {
      "name", "family", "model",       "parameters", "q0",        "v0",    "t0",
      "T",    "h",      "description", "comment",    "reference", "facts", "tags"};
  return fields;
}

const std::map<std::string, std::vector<std::string>>& model_parameters() {
  static const std::map<std::string, std::vector<std::string>> parameters = {
      {"knife-edge", {"m", "J", "a"}},
      {"rolling-disk", {"m", "R", "I", "J", "a"}},
  };
  return parameters;
}

void check_document(const CaseDocument& document) {
  if (document.family != "nonholonomic")
    throw InputError("family",
                     "expected the \"nonholonomic\" family here, got \"" + document.family + "\"");
  for (const auto& [key, value] : document.root.items())
    if (!nonholonomic_fields().count(key) && (key.empty() || key[0] != '_')) {
      std::vector<std::string> accepted(nonholonomic_fields().begin(), nonholonomic_fields().end());
      throw InputError(key.empty() ? "\"\"" : limits::describe_key(key),
                       "unknown field " + limits::describe_key(key) +
                           " of a nonholonomic case; accepted: " + join(accepted) +
                           " (and metadata keys starting with '_')");
    }
}

// The parameters object: every name the model needs, nothing else; values by the exact readers.
template <class Scalar>
std::map<std::string, Scalar> read_parameters(const json& root, const std::string& model) {
  const json& node = field_of(root, "parameters");
  if (!node.is_object())
    throw InputError("parameters", "expected an object {\"m\": 1, ...} with " +
                                       join(model_parameters().at(model)) + ", got " +
                                       detail::describe(node));
  const auto& names = model_parameters().at(model);
  for (const auto& [key, value] : node.items())
    if (std::find(names.begin(), names.end(), key) == names.end())
      throw InputError("parameters." + limits::describe_key(key),
                       "unknown parameter of the " + model + " model; accepted: " + join(names));
  std::map<std::string, Scalar> values;
  for (const auto& name : names) {
    const std::string field = "parameters." + name;
    if (!present(node, name))
      throw InputError(field, "is missing (the " + model + " model needs " + join(names) + ")");
    values[name] = case_number<Scalar>(field_of(node, name), field);
  }
  return values;
}

template <class Scalar>
std::shared_ptr<const NonholonomicModel<Scalar>> make_model(const std::string& model,
                                                            std::map<std::string, Scalar> p) {
  if (model == "rolling-disk")
    return std::make_shared<RollingDisk<Scalar>>(
        RollingDiskParameters<Scalar>{p["m"], p["R"], p["I"], p["J"], p["a"]});
  return std::make_shared<KnifeEdge<Scalar>>(KnifeEdgeParameters<Scalar>{p["m"], p["J"], p["a"]});
}

// The part of a ModelError's message after its "field: " prefix.
std::string message_of(const InputError& error) {
  const std::string what = error.what();
  const std::string prefix = error.field() + ": ";
  return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

}  // namespace

std::vector<std::string> nonholonomic_model_names() {
  std::vector<std::string> names;
  for (const auto& [name, parameters] : model_parameters()) names.push_back(name);
  return names;
}

template <class Scalar>
NonholonomicCase<Scalar> load_nonholonomic_case(const CaseDocument& document) {
  const json& root = document.root;
  check_document(document);
  const json& model_node = field_of(root, "model");
  if (!model_node.is_string())
    throw InputError("model", "expected one of " + join(nonholonomic_model_names()) + ", got " +
                                  detail::describe(model_node));
  const std::string model = model_node.get<std::string>();
  if (!model_parameters().count(model))
    throw InputError("model", "unknown nonholonomic model '" + model +
                                  "'; accepted: " + join(nonholonomic_model_names()));
  const auto parameters = read_parameters<Scalar>(root, model);
  NonholonomicCase<Scalar> out;
  try {
    out.model = make_model<Scalar>(model, parameters);
  } catch (const ModelError& e) {
    // The model names its parameter as the case file does; the field gets the object's path.
    throw ModelError("parameters." + e.field(), message_of(e));
  }
  out.initial.t = present(root, "t0") ? case_number<Scalar>(field_of(root, "t0"), "t0") : Scalar(0);
  out.initial.q = case_vector<Scalar>(field_of(root, "q0"), "q0");
  out.initial.v = case_vector<Scalar>(field_of(root, "v0"), "v0");
  detail::check_initial_state<Scalar>(out.model->dofs(), out.initial);
  const auto& m = *out.model;
  // The constraint at the accuracy of decimal data (docs above), then the projection onto D.
  const Matrix<Scalar> A = m.one_forms(out.initial.q);
  const Scalar residual = max_abs(A * out.initial.v);
  const Scalar scale = max_abs(A) * max_abs(out.initial.v) * Scalar(m.dofs());
  if (residual > Scalar(tolerance<double>(1.0, 4096.0)) * scale)
    throw ModelError("v0", "does not satisfy the velocity constraints of the " + model +
                               ": |A(q0) v0| = " + format_short(residual) +
                               " for v0 = " + format_vector(out.initial.v));
  out.initial.v = m.distribution(out.initial.q) * m.reduced_velocity(out.initial.q, out.initial.v);
  m.validate(out.initial);

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

template NonholonomicCase<double> load_nonholonomic_case<double>(const CaseDocument&);
template NonholonomicCase<Real50> load_nonholonomic_case<Real50>(const CaseDocument&);

}  // namespace nsh
