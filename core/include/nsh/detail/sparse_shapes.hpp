#pragma once
// The shape checks of a sparse model and its initial state before a scheme binds them: Eigen
// does not check shapes in a release build, so a mismatched model would be read out of bounds.

#include <nsh/error.hpp>
#include <nsh/model/linear_model.hpp>
#include <nsh/model/sparse_model.hpp>

#include <fmt/format.h>

namespace nsh::detail {

/// InputError naming the field whose shape does not fit the model's n = M.rows() dofs and m =
/// G.cols() contacts, or the initial state's size.
template <class Scalar>
void check_sparse_shapes(const SparseLinearModel<Scalar>& model, const State<Scalar>& initial) {
  const Index n = model.dofs(), m = model.contacts();
  auto square = [&](const SparseMatrix<Scalar>& A, const char* field) {
    if (A.rows() != n || A.cols() != n)
      throw InputError(field, fmt::format("is {} x {}, expected {} x {} (the size of M)", A.rows(),
                                          A.cols(), n, n));
  };
  if (model.M.cols() != n)
    throw InputError("M", fmt::format("is {} x {}, expected square", n, model.M.cols()));
  square(model.C, "C");
  square(model.K, "K");
  auto sized = [](const Vector<Scalar>& x, Index size, const char* field) {
    if (x.size() != size)
      throw InputError(field, fmt::format("has {} entries, expected {}", x.size(), size));
  };
  sized(model.F, n, "F");
  if (model.F_amplitude.size() != 0) sized(model.F_amplitude, n, "F_amplitude");
  if (model.G.rows() != n)
    throw InputError("G",
                     fmt::format("has {} rows, expected {} (the size of M)", model.G.rows(), n));
  sized(model.w, m, "w");
  sized(model.e, m, "e");
  if (initial.q.size() != n || initial.v.size() != n)
    throw InputError("q0", fmt::format("initial state has {} positions and {} velocities, the "
                                       "model has {} degrees of freedom",
                                       initial.q.size(), initial.v.size(), n));
}

}  // namespace nsh::detail
