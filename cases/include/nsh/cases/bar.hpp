#pragma once
// The elastic bar impacting a rigid wall (Acary, ZAMM 96(5), 2016, the benchmark of seed 001's
// author): a bar of length L, Young's modulus E, density rho, section A, moving at speed v0
// towards a rigid wall it touches at t = 0, discretized by N linear finite elements (N + 1
// nodes, displacements u_i). Node 0 carries the contact: gap g = u_0 + gap0 (G = e_0), U < 0
// approaching; initial velocity -v0 on every node.
//   element stiffness  E A / h_e [[1, -1], [-1, 1]],   h_e = L / N
//   lumped mass        rho A h_e diag(1/2, 1/2) per element
//   consistent mass    rho A h_e / 6 [[2, 1], [1, 2]] per element
// Continuum facts (d'Alembert; the rigid wall reflects the compression wave): wave speed
// c = sqrt(E / rho), contact duration 2 L / c, exit velocity +v0 = -(entry velocity) (the bar
// leaves with its kinetic energy restored and no vibration). The finite-element solutions
// approach these as N grows.

#include <nsh/io/case_file.hpp>

namespace nsh::cases {

enum class BarMass { lumped, consistent };

template <class Scalar>
struct BarParameters {
  Scalar length{1};
  Scalar youngs_modulus{1};
  Scalar density{1};
  Scalar area{1};
  Scalar speed{1};        ///< v0 > 0, towards the wall
  Scalar gap{0};          ///< initial gap of node 0 (0: contact at t = 0)
  Scalar restitution{0};  ///< Newton restitution of the node-wall contact
  Scalar horizon{3};      ///< T
};

/// The bar with N >= 1 elements, dense (every scheme reads it; N = 10^4 would need 2.4 GB).
template <class Scalar>
LinearCase<Scalar> make_bar(Index elements, BarMass mass,
                            const BarParameters<Scalar>& parameters = {});

/// The same bar with tridiagonal sparse M and K (the event-driven reference at N = 10^4).
/// double and Real50.
template <class Scalar>
SparseLinearCase<Scalar> make_sparse_bar(Index elements, BarMass mass,
                                         const BarParameters<Scalar>& parameters = {});

template <class Scalar>
Scalar bar_wave_speed(const BarParameters<Scalar>& p);  ///< sqrt(E / rho)
template <class Scalar>
Scalar bar_contact_duration(const BarParameters<Scalar>& p);  ///< 2 L / c
template <class Scalar>
Scalar bar_exit_velocity(const BarParameters<Scalar>& p);  ///< +v0 (rigid-body velocity)

}  // namespace nsh::cases
