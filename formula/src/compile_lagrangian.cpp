// A "lagrangian" case document to compiled programs: read the formulas, derive M, f, W_N and
// W_T symbolically, check what can be checked without numbers (shapes, symmetry of M, a
// quadratic kinetic energy), and compile.
#include "document_fields.hpp"
#include "symbolic.hpp"

#include <nsh/error.hpp>
#include <nsh/formula/lagrangian_case.hpp>
#include <nsh/number.hpp>

#include <fmt/format.h>

#include <set>

namespace nsh::formula {
namespace {

using detail::Depends;
using detail::Symbols;
using json = nlohmann::json;

std::string describe(const json& node) {
  std::string text = node.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return std::string(node.type_name()) + " " + text;
}

const std::set<std::string>& lagrangian_fields() {
  // clang-format off
  static const std::set<std::string> fields = {
      "name", "family", "parameters", "coordinates", "velocities",        // names
      "M", "kinetic_energy", "potential", "forces", "gaps", "tangents",  // formulas
      "one_forms", "distribution",                                        // A(q) v = 0, ker A
      "e", "mu", "q0", "v0", "t0", "T", "h",                             // numbers
      "description", "comment", "reference", "facts", "tags"};           // metadata
  // clang-format on
  return fields;
}

void check_document(const CaseDocument& document) {
  if (document.family != "lagrangian")
    throw InputError("family",
                     "expected the \"lagrangian\" family here, got \"" + document.family + "\"");
  for (const auto& [key, value] : document.root.items())
    if (!lagrangian_fields().count(key) && (key.empty() || key[0] != '_')) {
      std::string accepted;
      for (const auto& f : lagrangian_fields()) accepted += (accepted.empty() ? "" : ", ") + f;
      throw InputError(key, "unknown field of a lagrangian case; accepted: " + accepted +
                                " (and metadata keys starting with '_')");
    }
}

const json& list_of(const json& root, const std::string& key, std::size_t size,
                    const std::string& what) {
  const json& node = detail::document_field(root, key);
  if (!node.is_array())
    throw InputError(key, "expected a list of " + what + ", got " + describe(node));
  if (size != std::string::npos && node.size() != size)
    throw InputError(key, fmt::format("expected {} entries ({}), got {}", size, what, node.size()));
  return node;
}

std::vector<std::string> names(const json& root, const std::string& key, std::size_t size) {
  const json& node = list_of(root, key, size, "names");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (!node[i].is_string())
      throw InputError(fmt::format("{}[{}]", key, i), "expected a name, got " + describe(node[i]));
    out.push_back(node[i].get<std::string>());
  }
  return out;
}

std::string entry(const std::string& field, Index i) {
  return fmt::format("{}[{}]", field, i);
}
std::string entry(const std::string& field, Index i, Index j) {
  return fmt::format("{}[{}][{}]", field, i, j);
}

// (M_ij - M_ji) vanishes as written, after expansion: a symmetric M whose entries are written
// differently (sin(2x) against 2 sin x cos x) is refused rather than guessed.
bool same_formula(const GiNaC::ex& a, const GiNaC::ex& b) {
  return (a - b).expand().is_zero() || (a - b).normal().is_zero();
}

}  // namespace

CompiledLagrangian compile_lagrangian(const CaseDocument& document, bool rational) {
  const json& root = document.root;
  check_document(document);
  CompiledLagrangian out;
  out.name = document.name;

  if (!detail::document_has_field(root, "coordinates"))
    throw InputError("coordinates",
                     "is missing: list the generalized coordinates, e.g. "
                     "[\"x\", \"y\", \"phi\"]");
  out.coordinates = names(root, "coordinates", std::string::npos);
  const Index n = static_cast<Index>(out.coordinates.size());
  if (n == 0) throw InputError("coordinates", "the model needs at least one coordinate");
  if (detail::document_has_field(root, "velocities")) {
    out.velocities = names(root, "velocities", static_cast<std::size_t>(n));
  } else {
    for (const auto& q : out.coordinates) out.velocities.push_back(q + "_dot");
  }
  std::vector<std::pair<std::string, Rational>> parameters;
  if (detail::document_has_field(root, "parameters")) {
    const json& node = detail::document_field(root, "parameters");
    if (!node.is_object())
      throw InputError("parameters",
                       "expected an object {\"m\": 1, \"g\": \"981/100\"}, got " + describe(node));
    for (const auto& [key, value] : node.items()) {
      const std::string field = "parameters." + key;
      if (!value.is_string() && !value.is_number())
        throw InputError(field, "expected a number, got " + describe(value));
      parameters.emplace_back(
          key, parse_rational(value.is_string() ? value.get<std::string>() : value.dump(), field));
    }
  }
  const Symbols symbols(out.coordinates, out.velocities, parameters);
  // Every source formula with its field, for the Rational check.
  std::vector<std::pair<GiNaC::ex, std::string>> sources;
  const auto parse = [&](const json& node, const std::string& field, Depends depends) {
    GiNaC::ex e = symbols.parse(node, field, depends);
    sources.emplace_back(e, field);
    return e;
  };

  // The mass matrix, given or as the Hessian of the kinetic energy in the velocities.
  GiNaC::matrix M(n, n);
  if (detail::document_has_field(root, "M") && detail::document_has_field(root, "kinetic_energy"))
    throw InputError("kinetic_energy", "give either M or kinetic_energy, not both");
  if (detail::document_has_field(root, "kinetic_energy")) {
    out.mass_field = "kinetic_energy";
    const GiNaC::ex T = parse(detail::document_field(root, "kinetic_energy"), "kinetic_energy",
                              Depends::coordinates_velocities);
    GiNaC::exmap at_rest;
    for (Index i = 0; i < n; ++i) at_rest[symbols.v(i)] = 0;
    if (!T.subs(at_rest).expand().is_zero())
      throw InputError("kinetic_energy",
                       "must be a quadratic form in the velocities, but at "
                       "zero velocity it is " +
                           detail::to_text(T.subs(at_rest)));
    for (Index i = 0; i < n; ++i) {
      const GiNaC::ex momentum = T.diff(symbols.v(i));
      if (!momentum.subs(at_rest).expand().is_zero())
        throw InputError("kinetic_energy",
                         "must be a quadratic form in the velocities, but it has terms linear in " +
                             out.velocities[i]);
      for (Index j = 0; j < n; ++j) {
        M(i, j) = momentum.diff(symbols.v(j));
        for (Index k = 0; k < n; ++k)
          if (!M(i, j).diff(symbols.v(k)).expand().is_zero())
            throw InputError("kinetic_energy",
                             "must be a quadratic form in the velocities, but its Hessian "
                             "depends on " +
                                 out.velocities[k]);
      }
    }
  } else if (detail::document_has_field(root, "M")) {
    out.mass_field = "M";
    const json& rows = list_of(root, "M", static_cast<std::size_t>(n), "rows, one per coordinate");
    for (Index i = 0; i < n; ++i) {
      const json& row = rows[i];
      if (!row.is_array() || row.size() != static_cast<std::size_t>(n))
        throw InputError(entry("M", i),
                         fmt::format("expected a row of {} formulas, got {}", n, describe(row)));
      for (Index j = 0; j < n; ++j) M(i, j) = parse(row[j], entry("M", i, j), Depends::coordinates);
    }
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < i; ++j)
        if (!same_formula(M(i, j), M(j, i)))
          throw ModelError("M", "must be symmetric, but " + entry("M", i, j) + " = " +
                                    detail::to_text(M(i, j)) + " and " + entry("M", j, i) + " = " +
                                    detail::to_text(M(j, i)));
  } else {
    throw InputError("M",
                     "is missing: give the mass matrix \"M\" (rows of formulas) or the "
                     "\"kinetic_energy\"");
  }
  out.constant_mass = true;
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j)
      for (Index k = 0; k < n; ++k)
        if (!M(i, j).diff(symbols.q(k)).expand().is_zero()) out.constant_mass = false;

  const GiNaC::ex V =
      detail::document_has_field(root, "potential")
          ? parse(detail::document_field(root, "potential"), "potential", Depends::coordinates)
          : GiNaC::ex(0);
  std::vector<GiNaC::ex> forces(n, GiNaC::ex(0));
  if (detail::document_has_field(root, "forces")) {
    const json& node = list_of(root, "forces", static_cast<std::size_t>(n),
                               "one generalized force per coordinate");
    for (Index i = 0; i < n; ++i)
      forces[i] = parse(node[i], entry("forces", i), Depends::time_coordinates_velocities);
  }
  // f = f_ext - grad V - c, c_i = sum_jk (dM_ij/dq_k - 1/2 dM_jk/dq_i) v_j v_k: Lagrange's
  // equations d/dt dT/dv - dT/dq = f_ext - grad V with T = 1/2 v^T M(q) v.
  std::vector<GiNaC::ex> f(n);
  for (Index i = 0; i < n; ++i) {
    GiNaC::ex c = 0;
    if (!out.constant_mass)
      for (Index j = 0; j < n; ++j)
        for (Index k = 0; k < n; ++k)
          c += (M(i, j).diff(symbols.q(k)) - M(j, k).diff(symbols.q(i)) / 2) * symbols.v(j) *
               symbols.v(k);
    f[i] = forces[i] - V.diff(symbols.q(i)) - c.expand();
  }

  std::vector<GiNaC::ex> gaps;
  if (detail::document_has_field(root, "gaps")) {
    const json& node = list_of(root, "gaps", std::string::npos, "gap formulas");
    for (std::size_t a = 0; a < node.size(); ++a)
      gaps.push_back(parse(node[a], entry("gaps", static_cast<Index>(a)), Depends::coordinates));
  }
  const Index m = static_cast<Index>(gaps.size());
  out.contacts = m;
  // tangents[alpha]: a formula (d = 1) or a list of d formulas, the tangential coordinates of
  // contact alpha; W_T's columns are their gradients.
  std::vector<std::vector<GiNaC::ex>> tangents;
  std::vector<std::vector<std::string>> tangent_fields;
  if (detail::document_has_field(root, "tangents")) {
    const json& node = list_of(root, "tangents", static_cast<std::size_t>(m),
                               "one per gap: a formula, or a list of 1 or 2 formulas");
    for (Index a = 0; a < m; ++a) {
      const std::string field = entry("tangents", a);
      std::vector<GiNaC::ex> directions;
      std::vector<std::string> fields;
      if (node[a].is_array()) {
        if (node[a].empty() || node[a].size() > 2)
          throw InputError(field, "expected 1 or 2 tangential formulas, got " + describe(node[a]));
        for (std::size_t k = 0; k < node[a].size(); ++k) {
          fields.push_back(entry(field, static_cast<Index>(k)));
          directions.push_back(parse(node[a][k], fields.back(), Depends::coordinates));
        }
      } else {
        fields.push_back(field);
        directions.push_back(parse(node[a], field, Depends::coordinates));
      }
      const Index d = static_cast<Index>(directions.size());
      if (a > 0 && d != out.tangent_directions)
        throw InputError(field, fmt::format("has {} tangent direction(s), but tangents[0] has {}: "
                                            "every contact has the same number",
                                            d, out.tangent_directions));
      out.tangent_directions = d;
      tangents.push_back(std::move(directions));
      tangent_fields.push_back(std::move(fields));
    }
  }
  if (detail::document_has_field(root, "mu") && out.tangent_directions == 0)
    throw InputError("mu",
                     "friction coefficients need \"tangents\" (the tangential coordinate "
                     "of each contact)");
  if (out.tangent_directions > 0 && !detail::document_has_field(root, "mu"))
    throw InputError("mu",
                     "is missing: the model has tangents and needs friction coefficients "
                     "(one number or one per contact)");
  if (m > 0 && !detail::document_has_field(root, "e"))
    throw InputError("e", fmt::format("is missing: the model has {} contact(s) and needs a "
                                      "restitution coefficient (one number or one per contact)",
                                      m));

  // Nonholonomic velocity constraints A(q) v = 0 (docs/nonlinear-models.md "Velocity
  // constraints"): one_forms, r rows of n formulas, and distribution, n rows of n - r formulas
  // spanning ker A(q). The basis is given, not derived: no choice of dependent velocities is
  // regular on every configuration (the knife edge's v_x = cot(phi) v_y fails at phi = 0).
  GiNaC::matrix A(0, n), X(n, n);
  const bool has_one_forms = detail::document_has_field(root, "one_forms");
  if (has_one_forms != detail::document_has_field(root, "distribution"))
    throw InputError(has_one_forms ? "distribution" : "one_forms",
                     has_one_forms
                         ? "is missing: velocity constraints (one_forms) need a basis of their "
                           "kernel, n rows of n - r formulas X(q) with A(q) X(q) = 0"
                         : "is missing: a distribution is the kernel of velocity constraints "
                           "(one_forms, r rows of n formulas A(q) with A(q) v = 0)");
  if (has_one_forms) {
    const json& rows = list_of(root, "one_forms", std::string::npos, "rows of n formulas");
    const Index r = static_cast<Index>(rows.size());
    if (r == 0 || r >= n)
      throw InputError("one_forms",
                       fmt::format("expected between 1 and {} rows (fewer constraints than the {} "
                                   "coordinates), got {}",
                                   n - 1, n, r));
    A = GiNaC::matrix(r, n);
    for (Index a = 0; a < r; ++a) {
      if (!rows[a].is_array() || rows[a].size() != static_cast<std::size_t>(n))
        throw InputError(entry("one_forms", a), fmt::format("expected a row of {} formulas, got {}",
                                                            n, describe(rows[a])));
      for (Index i = 0; i < n; ++i)
        A(a, i) = parse(rows[a][i], entry("one_forms", a, i), Depends::coordinates);
    }
    const json& basis =
        list_of(root, "distribution", static_cast<std::size_t>(n), "rows, one per coordinate");
    X = GiNaC::matrix(n, n - r);
    for (Index i = 0; i < n; ++i) {
      if (!basis[i].is_array() || basis[i].size() != static_cast<std::size_t>(n - r))
        throw InputError(entry("distribution", i),
                         fmt::format("expected a row of n - r = {} formulas, got {}", n - r,
                                     describe(basis[i])));
      for (Index k = 0; k < n - r; ++k)
        X(i, k) = parse(basis[i][k], entry("distribution", i, k), Depends::coordinates);
    }
    out.velocity_constraints = r;
  }

  if (rational)
    for (const auto& [e, field] : sources) detail::require_rational(e, field);

  // The programs, and the derived formulas in print.
  std::vector<GiNaC::ex> expressions;
  std::vector<std::string> fields;
  const auto take = [&](const std::string& derived_name, const GiNaC::ex& e,
                        const std::string& field) {
    expressions.push_back(e);
    fields.push_back(field);
    if (!derived_name.empty()) out.derived.emplace_back(derived_name, detail::to_text(e));
  };
  const auto finish = [&]() {
    ProgramCode code = detail::compile(expressions, fields, symbols);
    expressions.clear();
    fields.clear();
    return code;
  };
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < n; ++i)
      take(entry("M", i, j), M(i, j),
           out.mass_field == "M" ? entry("M", i, j) : std::string("kinetic_energy"));
  out.mass = finish();
  for (Index i = 0; i < n; ++i)
    take(entry("f", i), f[i],
         detail::document_has_field(root, "forces") ? entry("forces", i) : "potential");
  out.force = finish();
  for (Index i = 0; i < n; ++i) take("", forces[i], entry("forces", i));
  out.external_force = finish();
  take("", V, "potential");
  out.potential = finish();
  for (Index a = 0; a < m; ++a) take("", gaps[a], entry("gaps", a));
  out.gap = finish();
  for (Index a = 0; a < m; ++a)
    for (Index i = 0; i < n; ++i)
      take(entry("W_N", i, a), gaps[a].diff(symbols.q(i)), entry("gaps", a));
  out.normal_jacobian = finish();
  // kappa_a = v^T (d^2 g_a/dq^2) v, the part of d^2 g_a/dt^2 beside W_N^T a (an acceleration-level
  // contact law needs it; docs/half-explicit-tdg.md "The forecasting trapezoidal rule").
  for (Index a = 0; a < m; ++a) {
    GiNaC::ex kappa = 0;
    for (Index i = 0; i < n; ++i) {
      const GiNaC::ex row = gaps[a].diff(symbols.q(i));
      for (Index j = 0; j < n; ++j) kappa += row.diff(symbols.q(j)) * symbols.v(i) * symbols.v(j);
    }
    take("", kappa, entry("gaps", a));
  }
  out.gap_curvature = finish();
  for (Index a = 0; a < static_cast<Index>(tangents.size()); ++a)
    for (std::size_t k = 0; k < tangents[a].size(); ++k)
      for (Index i = 0; i < n; ++i)
        take(entry("W_T", i, a * out.tangent_directions + static_cast<Index>(k)),
             tangents[a][k].diff(symbols.q(i)), tangent_fields[a][k]);
  out.tangent_jacobian = finish();
  const Index r = out.velocity_constraints;
  for (Index i = 0; i < n; ++i)
    for (Index a = 0; a < r; ++a) take(entry("A", a, i), A(a, i), entry("one_forms", a, i));
  out.one_forms = finish();
  for (Index k = 0; k < (r > 0 ? n - r : 0); ++k)
    for (Index i = 0; i < n; ++i) take(entry("X", i, k), X(i, k), entry("distribution", i, k));
  out.distribution = finish();
  // K = -df/dq and C = -df/dv, column-major, for an implicit scheme's iteration matrix.
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < n; ++i)
      take("", -f[i].diff(symbols.q(j)),
           detail::document_has_field(root, "forces") ? entry("forces", i) : "potential");
  out.stiffness = finish();
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < n; ++i)
      take("", -f[i].diff(symbols.v(j)),
           detail::document_has_field(root, "forces") ? entry("forces", i) : "potential");
  out.damping = finish();
  return out;
}

}  // namespace nsh::formula
