#pragma once
// The report's nonholonomic part (issue 15, docs/nonholonomic.md): on the catalogue's rolling
// disk and knife edge, dla and moreau-jean against the exact reference (nsh converge's study),
// the DLA's impact energy jump against h with its fitted slope (the seed's sentence "does not
// conserve energy at impacts" confirmed or refuted by the number), the trajectories drawn in the
// table (x, y with the boundary) and the energy per step.

#include <nsh/reports/convergence.hpp>

#include <functional>
#include <string>
#include <vector>

namespace nsh::reports {

struct NonholonomicPath {
  std::string scheme;
  std::vector<double> t, x, y, energy;  ///< every node at the plotted h
};

struct NonholonomicStudy {
  std::string case_name;
  std::vector<ConvergenceStudy> studies;  ///< dla and moreau-jean, double, against the exact one
  /// The same two schemes over the first two impacts (to impact_T) at h = 1/200 ... 1/1600: the
  /// impact times' orders, which the coarse ladder over all of T cannot fit.
  std::vector<ConvergenceStudy> impact_studies;
  double impact_T{0};
  std::vector<double> jump_h, jump;  ///< dla: max over impacts of |E+ - E-|/E per h
  OrderFit jump_fit;
  double plot_h{0};
  std::vector<NonholonomicPath> paths;  ///< dla and moreau-jean at plot_h
  std::string boundary;                 ///< "circle" (radius a) or "wall" (x = a)
  double a{0};
  std::string failure;  ///< why there is nothing (a failed reference, bad input)
};

/// rolling-disk and knife-edge at h = 0.02, 0.01, 0.005, 0.0025 (the paths at 0.01), and their
/// first two impacts at h = 1/200 ... 1/1600: a few seconds in all.
std::vector<NonholonomicStudy> default_nonholonomic_studies(
    const std::function<void(const std::string&)>& progress = {});

/// The page's section (HTML) and its Markdown summary; `dir_of(case)` is where the study's
/// convergence files were written, relative to the page.
std::string nonholonomic_html(const std::vector<NonholonomicStudy>& studies,
                              const std::function<std::string(const std::string&)>& dir_of);
std::string nonholonomic_markdown(const std::vector<NonholonomicStudy>& studies);

}  // namespace nsh::reports
