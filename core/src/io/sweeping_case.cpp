// Case files of the first-order families, and the exact solutions of seed 004's sweeping process.
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/sweeping_case.hpp>
#include <nsh/projection/ball.hpp>
#include <nsh/projection/box.hpp>
#include <nsh/projection/finite_set.hpp>
#include <nsh/projection/half_space.hpp>
#include <nsh/projection/polyhedron.hpp>

#include <fmt/format.h>

namespace nsh {
namespace {

using json = nlohmann::json;

// Named apart from detail::present (case_file_text.hpp), which a unity batch of nsh_io also sees
// and which counts a null value as present.
bool present_not_null(const json& node, const std::string& key) {
  return node.is_object() && node.contains(key) && !node.at(key).is_null();
}

const json& required(const json& node, const std::string& key, const std::string& field) {
  if (!present_not_null(node, key)) throw InputError(field, "is required");
  return node.at(key);
}

// A bound list: a number (one dimension), or an array whose null entries are infinite.
template <class Scalar>
std::vector<std::optional<Scalar>> bounds(const json& node, const std::string& field, Index n) {
  std::vector<std::optional<Scalar>> out;
  if (!node.is_array()) {
    out.emplace_back(case_number<Scalar>(node, field));
    return out;
  }
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (node[i].is_null())
      out.emplace_back(std::nullopt);
    else
      out.emplace_back(case_number<Scalar>(node[i], fmt::format("{}[{}]", field, i)));
  }
  if (n >= 0 && static_cast<Index>(out.size()) != n)
    throw InputError(field, fmt::format("expected {} entries, got {}", n, out.size()));
  return out;
}

}  // namespace

template <class Scalar>
std::shared_ptr<const ProjectionProvider<Scalar>> load_projection_set(const json& node,
                                                                      const std::string& field) {
  if (!node.is_object()) throw InputError(field, "must be an object with a \"type\"");
  const json& type_node = required(node, "type", field + ".type");
  if (!type_node.is_string()) throw InputError(field + ".type", "must be a string");
  const std::string type = type_node.get<std::string>();
  if (type == "interval" || type == "box") {
    Index n = -1;
    if (present_not_null(node, "lower") && node.at("lower").is_array()) n = node.at("lower").size();
    if (present_not_null(node, "upper") && node.at("upper").is_array()) n = node.at("upper").size();
    if (n < 0) n = 1;
    auto lo = present_not_null(node, "lower")
                  ? bounds<Scalar>(node.at("lower"), field + ".lower", n)
                  : std::vector<std::optional<Scalar>>(n);
    auto hi = present_not_null(node, "upper")
                  ? bounds<Scalar>(node.at("upper"), field + ".upper", n)
                  : std::vector<std::optional<Scalar>>(n);
    return std::make_shared<BoxProjection<Scalar>>(std::move(lo), std::move(hi));
  }
  if (type == "half-space")
    return std::make_shared<HalfSpaceProjection<Scalar>>(
        case_vector<Scalar>(required(node, "a", field + ".a"), field + ".a"),
        case_number<Scalar>(required(node, "b", field + ".b"), field + ".b"));
  if (type == "polyhedron")
    return std::make_shared<PolyhedronProjection<Scalar>>(
        case_matrix<Scalar>(required(node, "A", field + ".A"), field + ".A"),
        case_vector<Scalar>(required(node, "b", field + ".b"), field + ".b"));
  if (type == "finite") {
    const json& points = required(node, "points", field + ".points");
    if (!points.is_array()) throw InputError(field + ".points", "must be an array of points");
    std::vector<Vector<Scalar>> z;
    for (std::size_t k = 0; k < points.size(); ++k)
      z.push_back(case_vector<Scalar>(points[k], fmt::format("{}.points[{}]", field, k)));
    return std::make_shared<FiniteSetProjection<Scalar>>(std::move(z));
  }
  if (type == "ball") {
    if constexpr (has_transcendentals_v<Scalar>) {
      return std::make_shared<BallProjection<Scalar>>(
          case_vector<Scalar>(required(node, "center", field + ".center"), field + ".center"),
          case_number<Scalar>(required(node, "radius", field + ".radius"), field + ".radius"));
    } else {
      throw InputError(field + ".type", "a ball needs sqrt: use --precision double or 50");
    }
  }
  throw InputError(field + ".type", "'" + type +
                                        "' is not a set type; accepted: interval, box, half-space, "
                                        "ball, polyhedron, finite");
}

template <class Scalar>
SweepingCase<Scalar> load_sweeping_case(const CaseDocument& document) {
  if (document.family != "sweeping" && document.family != "penalty-line")
    throw InputError("family", "'" + document.family +
                                   "' is not a first-order family "
                                   "(sweeping, penalty-line)");
  const json& root = document.root;
  SweepingCase<Scalar> out;
  out.model.name = document.name;
  out.model.b = case_vector<Scalar>(required(root, "b", "b"), "b");
  const Index n = out.model.b.size();
  out.model.A = present_not_null(root, "A") ? case_matrix<Scalar>(root.at("A"), "A")
                                            : Matrix<Scalar>(Matrix<Scalar>::Zero(n, n));
  if (present_not_null(root, "c")) out.model.c = case_vector<Scalar>(root.at("c"), "c");
  out.model.set = load_projection_set<Scalar>(required(root, "set", "set"), "set");
  out.model.validate();
  out.initial.t =
      present_not_null(root, "t0") ? case_number<Scalar>(root.at("t0"), "t0") : Scalar(0);
  out.initial.x = case_vector<Scalar>(required(root, "x0", "x0"), "x0");
  if (out.initial.x.size() != n)
    throw InputError("x0", fmt::format("expected {} entries, got {}", n, out.initial.x.size()));
  if (out.model.set->violation(out.initial.x) > Scalar(0))
    throw ModelError("x0",
                     format_vector(out.initial.x) + " is not in " + out.model.set->describe());
  out.T = case_number<Scalar>(required(root, "T", "T"), "T");
  if (out.T < out.initial.t)
    throw InputError("T", format_scalar(out.T) + " is before t0 = " + format_scalar(out.initial.t));
  if (present_not_null(root, "h")) {
    out.h = case_number<Scalar>(root.at("h"), "h");
    if (!(*out.h > Scalar(0))) throw InputError("h", "must be > 0, got " + format_scalar(*out.h));
  }
  return out;
}

template <class Scalar>
FirstOrderTrajectory<Scalar> run_first_order(const std::string& spec,
                                             const SweepingCase<Scalar>& sweeping_case,
                                             const Scalar& h) {
  auto scheme = FirstOrderRegistry::builtin().make<Scalar>(spec);
  return record_first_order(*scheme, sweeping_case.model, sweeping_case.initial, h,
                            sweeping_case.T);
}

template <class Scalar>
Scalar interval_sweeping_exact(const Scalar& lo, const Scalar& hi, const Scalar& f,
                               const Scalar& x0, const Scalar& t0, const Scalar& t) {
  Scalar x = x0 + f * (t - t0);
  if (x < lo) x = lo;
  if (x > hi) x = hi;
  return x;
}

template <class Scalar>
Scalar sweeping_interval_sup_error(const Scalar& h) {
  if (!(h > Scalar(0))) throw InputError("h", "must be > 0, got " + format_scalar(h));
  // s = 1 - floor(1/h) h, the distance from the last grid node before t = 1 to t = 1.
  const Scalar ratio = Scalar(1) / h;
  Scalar n;
  if constexpr (is_exact_v<Scalar>) {
    n = Scalar(numerator(ratio) / denominator(ratio));
  } else {
    using std::floor;
    n = floor(ratio);
  }
  const Scalar s = Scalar(1) - n * h;
  return s * (h - s) / h;
}

template <class Scalar>
Scalar sweeping_interval_error(const FirstOrderTrajectory<Scalar>& trajectory) {
  const std::function<Vector<Scalar>(const Scalar&)> exact = [](const Scalar& t) {
    return Vector<Scalar>(Vector<Scalar>::Constant(1, sweeping_interval_exact<Scalar>(t)));
  };
  return interpolation_sup_error<Scalar>(trajectory, exact, {Scalar(1)});
}

#define NSH_INSTANTIATE_SWEEPING_CASE(S)                                                          \
  template std::shared_ptr<const ProjectionProvider<S>> load_projection_set<S>(                   \
      const json&, const std::string&);                                                           \
  template SweepingCase<S> load_sweeping_case<S>(const CaseDocument&);                            \
  template FirstOrderTrajectory<S> run_first_order(const std::string&, const SweepingCase<S>&,    \
                                                   const S&);                                     \
  template S interval_sweeping_exact(const S&, const S&, const S&, const S&, const S&, const S&); \
  template S sweeping_interval_sup_error(const S&);                                               \
  template S sweeping_interval_error(const FirstOrderTrajectory<S>&);
NSH_INSTANTIATE_SWEEPING_CASE(double)
NSH_INSTANTIATE_SWEEPING_CASE(Real50)
NSH_INSTANTIATE_SWEEPING_CASE(Rational)
#undef NSH_INSTANTIATE_SWEEPING_CASE

}  // namespace nsh
