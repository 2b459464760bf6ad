// Deliberately broken discrete Lagrange-d'Alembert integrators (nsh/properties/mutants.hpp),
// registered as "mutant:<name>": the dla scheme through its seam, one evaluation point moved
// (detail::DlaEvaluation, docs/nonholonomic.md). Each reports dla's spec, so it is held to dla's
// claims and must fail a check of docs/nonholonomic.md that the faithful integrator passes.
//
//   mutant:dla-equal-substeps                impact sub-steps h/2, h/2 instead of alpha h
//   mutant:dla-constraint-at-node            A(q_k) w = 0 instead of at the midpoint
//   mutant:dla-impact-off-boundary           alpha from the chord of g: q_bar not on g = 0
//   mutant:dla-impact-forms-at-previous-node (5c)'s constraint forces along A(q_{i-1})
#include <nsh/registry.hpp>
#include <nsh/schemes/dla.hpp>

#include <memory>

namespace nsh::properties {

void register_dla_mutants(Registry& registry) {
  detail::DlaEvaluation equal_substeps, at_node, off_boundary, previous_forms;
  equal_substeps.substeps_split_at_alpha = false;
  at_node.constraint_at_midpoint = false;
  off_boundary.impact_point_on_boundary = false;
  previous_forms.impact_forms_at_impact_point = false;
  const struct {
    const char* name;
    const char* summary;
    detail::DlaEvaluation evaluation;
  } mutants[] = {
      {"mutant:dla-equal-substeps", "dla with impact sub-steps h/2, h/2 instead of alpha h",
       equal_substeps},
      {"mutant:dla-constraint-at-node",
       "dla with the discrete constraint A(q_k) w = 0 instead of at the midpoint", at_node},
      {"mutant:dla-impact-off-boundary",
       "dla with alpha from the chord of g, the impact point not on g = 0", off_boundary},
      {"mutant:dla-impact-forms-at-previous-node",
       "dla with the constraint forces of (5c) along A(q_{i-1}) instead of A(q_bar)",
       previous_forms},
  };
  for (const auto& m : mutants) {
    SchemeEntry mutant;
    mutant.name = m.name;
    mutant.summary = m.summary;
    mutant.is_mutant = true;
    const detail::DlaEvaluation evaluation = m.evaluation;
    const std::string name = m.name;
    mutant.make.get<double>() = [evaluation, name](const SchemeSpec& s) {
      return std::make_unique<DlaScheme<double>>(s, evaluation, name);
    };
    mutant.make.get<Real50>() = [evaluation, name](const SchemeSpec& s) {
      return std::make_unique<DlaScheme<Real50>>(s, evaluation, name);
    };
    registry.add(std::move(mutant));
  }
}

}  // namespace nsh::properties
