// The one list of a linear model's fields, shared by every conversion between the dense and the
// sparse model and between scalars (model_cast, to_sparse, to_dense, sparse_model_cast): a field
// added to both models is then copied by all of them, or by none.
#pragma once

namespace nsh::detail {

/// out's M, C and K from in's, each through `convert` (a scalar cast, or dense <-> sparse).
template <class Out, class In, class Convert>
void copy_matrices(Out& out, const In& in, Convert convert) {
  out.M = convert(in.M);
  out.C = convert(in.C);
  out.K = convert(in.K);
}

/// out's name, loads and frictionless contacts from in's, the numbers through `convert`.
template <class Out, class In, class Convert>
void copy_loads_and_contacts(Out& out, const In& in, Convert convert) {
  out.name = in.name;
  out.F = convert(in.F);
  out.F_amplitude = convert(in.F_amplitude);
  out.omega = convert(in.omega);
  out.G = convert(in.G);
  out.w = convert(in.w);
  out.e = convert(in.e);
}

/// The identity `convert` of a conversion that keeps the scalar.
inline constexpr auto same = [](const auto& x) { return x; };

}  // namespace nsh::detail
