#include <nsh/scalar.hpp>

#include <nsh/cases/oscillator.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <cmath>

namespace nsh::cases {

template <class Scalar>
Oscillator<Scalar> Oscillator<Scalar>::from_case(const LinearModel<Scalar>& model,
                                                 const State<Scalar>& initial) {
  if (model.dofs() != 1 || model.contacts() != 0)
    throw InputError(model.name, "oscillator: expected 1 degree of freedom and no contact");
  Oscillator o;
  o.mass = model.M(0, 0);
  o.damping = model.C(0, 0);
  o.stiffness = model.K(0, 0);
  o.force = model.F(0);
  o.amplitude = model.has_harmonic_force() ? model.F_amplitude(0) : Scalar(0);
  o.omega = model.omega;
  o.q0 = initial.q(0);
  o.v0 = initial.v(0);
  o.t0 = initial.t;
  if (!(o.stiffness > Scalar(0))) throw InputError("K", "oscillator: needs k > 0");
  if (!(o.damping * o.damping < Scalar(4) * o.mass * o.stiffness))
    throw InputError("C", "oscillator: the closed form is for the underdamped case c^2 < 4 m k");
  const Scalar detuning = o.stiffness - o.mass * o.omega * o.omega;
  if (o.amplitude != Scalar(0) && detuning == Scalar(0) && o.damping == Scalar(0))
    throw InputError("omega", "oscillator: undamped resonance has no bounded closed form here");
  return o;
}

template <class Scalar>
State<Scalar> Oscillator<Scalar>::state(const Scalar& t) const {
  using std::cos;
  using std::exp;
  using std::sin;
  using std::sqrt;
  const Scalar detuning = stiffness - mass * omega * omega;
  Scalar A(0), B(0);
  if (amplitude != Scalar(0)) {
    const Scalar D = detuning * detuning + damping * omega * damping * omega;
    A = amplitude * detuning / D;
    B = -amplitude * damping * omega / D;
  }
  auto qp = [&](const Scalar& time) {
    return force / stiffness + A * sin(omega * time) + B * cos(omega * time);
  };
  auto vp = [&](const Scalar& time) {
    return A * omega * cos(omega * time) - B * omega * sin(omega * time);
  };
  const Scalar gamma = damping / (Scalar(2) * mass);
  const Scalar wd = sqrt(stiffness / mass - gamma * gamma);
  const Scalar C1 = q0 - qp(t0);
  const Scalar C2 = (v0 - vp(t0) + gamma * C1) / wd;
  const Scalar s = t - t0;
  const Scalar decay = exp(-gamma * s);
  const Scalar c = cos(wd * s), sn = sin(wd * s);
  State<Scalar> out;
  out.t = t;
  out.q = Vector<Scalar>(1);
  out.v = Vector<Scalar>(1);
  out.q(0) = qp(t) + decay * (C1 * c + C2 * sn);
  out.v(0) = vp(t) + decay * ((-gamma * C1 + wd * C2) * c + (-gamma * C2 - wd * C1) * sn);
  return out;
}

template <class Scalar>
OscillatorStop<Scalar> OscillatorStop<Scalar>::from_case(const LinearModel<Scalar>& model,
                                                         const State<Scalar>& initial) {
  if (model.dofs() != 1 || model.contacts() != 1)
    throw InputError(model.name, "oscillator-stop: expected 1 degree of freedom and 1 contact");
  if (max_abs(model.C) != Scalar(0) || max_abs(model.F) != Scalar(0) || model.has_harmonic_force())
    throw InputError(model.name, "oscillator-stop: expected no damping and no force");
  if (model.G(0, 0) != Scalar(1))
    throw InputError("G", "oscillator-stop: expected the gap g = q + d (G = [1])");
  OscillatorStop o;
  o.mass = model.M(0, 0);
  o.stiffness = model.K(0, 0);
  o.stop = model.w(0);
  o.restitution = model.e(0);
  o.q0 = initial.q(0);
  o.v0 = initial.v(0);
  o.t0 = initial.t;
  if (!(o.stop > Scalar(0)) || !(o.stiffness > Scalar(0)))
    throw InputError("w", "oscillator-stop: expected k > 0 and the stop at q = -d < 0");
  return o;
}

template <class Scalar>
Scalar OscillatorStop<Scalar>::impact_time(Index k) const {
  using std::acos;
  using std::atan2;
  using std::sqrt;
  if (k < 1) throw InputError("k", "impacts are numbered from 1");
  const Scalar w = sqrt(stiffness / mass);
  const Scalar A = sqrt(q0 * q0 + v0 * v0 / (w * w));
  if (!(A > stop))
    throw InputError("q0", "oscillator-stop: the free amplitude does not reach the stop");
  // q = A cos(w (t - t0) - phi); first arrival at q = -d while descending: phase acos(-d/A).
  const Scalar phi = atan2(v0 / w, q0);
  const Scalar pi = acos(Scalar(-1));
  Scalar phase = acos(-stop / A) - phi;
  while (phase < Scalar(0)) phase += Scalar(2) * pi;
  Scalar t = t0 + phase / w;
  Scalar u = sqrt(A * A - stop * stop) * w;  // |U_1^-|
  for (Index j = 1; j < k; ++j) {
    u *= restitution;
    const Scalar Ak = sqrt(stop * stop + u * u / (w * w));
    t += Scalar(2) * acos(-stop / Ak) / w;
  }
  return t;
}

template <class Scalar>
Scalar OscillatorStop<Scalar>::impact_velocity(Index k) const {
  using std::sqrt;
  if (k < 1) throw InputError("k", "impacts are numbered from 1");
  const Scalar w = sqrt(stiffness / mass);
  const Scalar A = sqrt(q0 * q0 + v0 * v0 / (w * w));
  Scalar u = sqrt(A * A - stop * stop) * w;
  for (Index j = 1; j < k; ++j) u *= restitution;
  return -u;
}

template struct Oscillator<double>;
template struct Oscillator<Real50>;
template struct OscillatorStop<double>;
template struct OscillatorStop<Real50>;

}  // namespace nsh::cases
