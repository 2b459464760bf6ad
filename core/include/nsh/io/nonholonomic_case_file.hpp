#pragma once
// Case files of the "nonholonomic" family (docs/case-files.md, docs/nonholonomic.md):
//
//   { "name": "rolling-disk", "family": "nonholonomic", "model": "rolling-disk",
//     "parameters": {"m": 1, "R": 1, "I": "1/2", "J": "1/4", "a": 5},
//     "q0": [0, 0, 0, 0], "v0": [2, 0, 2, "3/10"], "t0": 0, "T": 12, "h": "1/100" }
//
// Models and their parameters (every one required; each > 0 except the wall a):
//   "rolling-disk"  q = (x, y, theta, phi); m, R, I, J, a (table radius, a > R)
//                   (nsh/nonholonomic/rolling_disk.hpp)
//   "knife-edge"    q = (x, y, phi); m, J, a (the wall x = a)  (nsh/nonholonomic/knife_edge.hpp)
//
// v0 must satisfy the velocity constraints A(q0) v0 = 0 to the accuracy of the decimals a case
// file holds (|A v0| <= 4096 double epsilons times |A| |v0|, the same in every precision); it is
// then replaced by its M-orthogonal projection onto D_q0, so that the constraint holds to the
// round-off of the scalar the case is read in (a decimal "0.3" is not exactly representable).
// q0 must be admissible (every g_j(q0) <= 0). Errors: InputError or ModelError naming the field
// ("parameters.I", "q0", "v0", "model") and the value.

#include <nsh/io/case_file.hpp>
#include <nsh/nonholonomic/nonholonomic_model.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nsh {

template <class Scalar>
struct NonholonomicCase {
  std::shared_ptr<const NonholonomicModel<Scalar>> model;
  State<Scalar> initial;
  Scalar T{1};
  std::optional<Scalar> h;
};

/// The models the "nonholonomic" family knows ("knife-edge", "rolling-disk").
std::vector<std::string> nonholonomic_model_names();

/// Load a "nonholonomic" document into Scalar (double or Real50) and validate it.
template <class Scalar>
NonholonomicCase<Scalar> load_nonholonomic_case(const CaseDocument& document);

}  // namespace nsh
