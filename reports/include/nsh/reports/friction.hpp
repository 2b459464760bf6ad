#pragma once
// The report's "Friction" section (issue 13): a frictional scheme on the catalogue cases with a
// persistent-contact closed form (nsh/cases/friction.hpp), at several step sizes, measured at
// run time against the closed form:
//   event time   the first step at which U_T = G_T^T v is zero (to round-off): the block's stop
//                t* = v0/(mu g), the ball's onset of rolling 2 v0/(7 mu g) or v0/(3 mu g);
//   speed        x'(T) against the closed form's (0 for the block, 5 v0/7 and 2 v0/3);
//   position     |x(T) - x_ref(T)|.
// Each study is one (case, scheme) over the step sizes; a scheme that refuses the model (no
// friction: a ModelError naming mu) or a step that fails leaves a message instead of rows.

#include <nsh/reports/convergence.hpp>

#include <functional>
#include <string>
#include <vector>

namespace nsh::reports {

struct FrictionRow {
  std::string h;  ///< the step size as given (exact text)
  double h_value{0};
  bool reached{false};       ///< U_T reached zero within the horizon
  double event_time{0};      ///< t of the first step with U_T = 0 (if reached)
  double speed{0};           ///< x'(T)
  double position{0};        ///< x(T)
  double event_error{0};     ///< |event_time - reference| (if reached)
  double speed_error{0};     ///< |x'(T) - reference|
  double position_error{0};  ///< |x(T) - x_ref(T)|
};

struct FrictionStudy {
  std::string case_name;
  std::string scheme;            ///< canonical spec
  std::string event;             ///< "stop" or "rolling" (from the closed form's phases)
  double event_reference{0};     ///< t* or t_r of the closed form
  double speed_reference{0};     ///< x'(T) of the closed form
  double position_reference{0};  ///< x(T) of the closed form
  double T{0};
  std::vector<FrictionRow> rows;
  std::string failure;  ///< why the study has no rows (refused, a step failed), else empty
};

/// Runs `scheme` on `case_name` (a frictional catalogue case with a PersistentContact closed
/// form) at each h, in double. InputError if the case has no such closed form.
FrictionStudy run_friction_study(const std::string& case_name, const std::string& scheme,
                                 const std::vector<std::string>& h);

/// The report's default friction studies: sliding-block, rolling-sphere and rolling-cylinder
/// with moreau-jean:theta=1 at h = 1/50 ... 1/1600.
std::vector<FrictionStudy> default_friction_studies();

/// A nonlinear (lagrangian) case of the Friction section: a convergence study of moreau-jean
/// computed at run time (run_lagrangian_convergence), few step sizes to keep the report short.
struct LagrangianFrictionStudy {
  std::string case_name;
  std::string about;    ///< what is measured, in words, for the page
  std::string measure;  ///< the measure the page tabulates and plots
  std::vector<ConvergenceStudy> studies;
  std::string failure;  ///< why there are no studies (no GiNaC, bad input, a failed reference)
};

/// The rocking block's Housner ratio (reference housner; moreau-jean:activation=position,
/// friction=lemke at h = 1/1000, 1/2000, 1/4000 over T = 1/2) and the rod across two corners
/// (reference self; moreau-jean:theta=1,activation=position at h = 1/100, 1/200, 1/400, the
/// reference at h = 1/6400 in Real50): about a second and a half in all. Without the formula
/// module each carries its failure instead.
std::vector<LagrangianFrictionStudy> default_lagrangian_friction_studies(
    const std::function<void(const std::string&)>& progress = {});

/// The error plots of a study (event time, speed, position against h, log-log) as SVG.
std::string friction_plot(const FrictionStudy& study);

}  // namespace nsh::reports
