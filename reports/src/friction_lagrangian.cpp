// The Friction section's nonlinear cases (nsh/reports/friction.hpp): convergence studies of
// moreau-jean on the catalogue's lagrangian rigid bodies, computed when the report runs.
#include <nsh/error.hpp>
#include <nsh/reports/friction.hpp>
#include <nsh/reports/lagrangian_family.hpp>

#include <stdexcept>

namespace nsh::reports {
namespace {

LagrangianFrictionStudy lagrangian_friction_study(
    const std::string& case_name, const std::string& about, const std::string& measure,
    const std::string& scheme, const std::vector<std::string>& h, const std::string& reference,
    const std::string& T, const std::function<void(const std::string&)>& progress) {
  LagrangianFrictionStudy study;
  study.case_name = case_name;
  study.about = about;
  study.measure = measure;
  if (!lagrangian_family_available()) {
    study.failure =
        "this nsh was built without the formula module (GiNaC), which lagrangian case files need";
    return study;
  }
  ConvergenceOptions options;
  options.case_name = case_name;
  options.schemes = {scheme};
  options.h = h;
  options.reference = reference;
  options.T = T;
  options.keep_going = true;
  options.progress = progress;
  try {
    study.studies = run_convergence(options);
  } catch (const InputError& e) {
    study.failure = e.what();
  } catch (const StepError& e) {
    study.failure = e.what();
  }
  return study;
}

}  // namespace

std::vector<LagrangianFrictionStudy> default_lagrangian_friction_studies(
    const std::function<void(const std::string&)>& progress) {
  return {
      lagrangian_friction_study(
          "rocking-block",
          "Housner's ratio phi'+ / phi'- = 1 - (3/2) sin^2 alpha = 23/29 at the first landing "
          "(e = 0, mu = 1, no slip); the reference is the closed form of nsh::cases::RockingBlock, "
          "which the case file's model is checked to equal",
          "housner_ratio", "moreau-jean:activation=position,friction=lemke",
          {"1/1000", "1/2000", "1/4000"}, "housner", "1/2", progress),
      lagrangian_friction_study(
          "rod-on-corners",
          "the rod falling across two corners (e = 0, mu = 1/2), q(T) at T = 1/2; no closed "
          "form: the reference is the same scheme in Real50 at the smallest h / 16 "
          "(self-convergence)",
          "q_final", "moreau-jean:theta=1,activation=position", {"1/100", "1/200", "1/400"}, "self",
          "", progress)};
}

}  // namespace nsh::reports
