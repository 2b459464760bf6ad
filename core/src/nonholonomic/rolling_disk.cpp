#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/nonholonomic/rolling_disk.hpp>

#include <cmath>

namespace nsh {
namespace {

template <class Scalar>
void require_positive(const Scalar& value, const char* field, const char* what) {
  if (!(is_finite(value) && value > Scalar(0)))
    throw ModelError(field, std::string(what) + " must be > 0, got " + format_scalar(value));
}

}  // namespace

template <class Scalar>
RollingDisk<Scalar>::RollingDisk(const RollingDiskParameters<Scalar>& parameters)
    : parameters_(parameters) {
  const auto& p = parameters_;
  require_positive(p.mass, "m", "the mass");
  require_positive(p.radius, "R", "the disk's radius");
  require_positive(p.axle_inertia, "I", "the moment of inertia about the axle");
  require_positive(p.vertical_inertia, "J", "the moment of inertia about the vertical");
  if (!(is_finite(p.table_radius) && p.table_radius > p.radius))
    throw ModelError("a", "the table's radius must exceed the disk's radius R = " +
                              format_scalar(p.radius) + ", got " + format_scalar(p.table_radius));
}

template <class Scalar>
Vector<Scalar> RollingDisk<Scalar>::velocity(const Vector<Scalar>& q, const Scalar& theta_rate,
                                             const Scalar& phi_rate) const {
  using std::cos;
  using std::sin;
  const Scalar R = parameters_.radius;
  Vector<Scalar> v(4);
  v << R * cos(q(3)) * theta_rate, R * sin(q(3)) * theta_rate, theta_rate, phi_rate;
  return v;
}

template <class Scalar>
std::string RollingDisk<Scalar>::coordinate_name(Index i) const {
  static const char* names[] = {"x", "y", "theta", "phi"};
  return i >= 0 && i < 4 ? names[i] : "?";
}

template <class Scalar>
std::string RollingDisk<Scalar>::inequality_name(Index j) const {
  return j == 0 ? "g_+" : "g_-";
}

template <class Scalar>
std::string RollingDisk<Scalar>::reduced_velocity_name(Index i) const {
  static const char* names[] = {"theta_rate", "phi_rate"};
  return i >= 0 && i < 2 ? names[i] : "?";
}

template <class Scalar>
Matrix<Scalar> RollingDisk<Scalar>::do_mass(const Vector<Scalar>&) const {
  const auto& p = parameters_;
  Matrix<Scalar> M = Matrix<Scalar>::Zero(4, 4);
  M(0, 0) = M(1, 1) = p.mass;
  M(2, 2) = p.axle_inertia;
  M(3, 3) = p.vertical_inertia;
  return M;
}

template <class Scalar>
Scalar RollingDisk<Scalar>::do_potential(const Vector<Scalar>&) const {
  return Scalar(0);
}

template <class Scalar>
Vector<Scalar> RollingDisk<Scalar>::do_potential_gradient(const Vector<Scalar>&) const {
  return Vector<Scalar>::Zero(4);
}

template <class Scalar>
Matrix<Scalar> RollingDisk<Scalar>::do_one_forms(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  const Scalar R = parameters_.radius;
  Matrix<Scalar> A = Matrix<Scalar>::Zero(2, 4);
  A(0, 0) = Scalar(1);
  A(0, 2) = -R * cos(q(3));
  A(1, 1) = Scalar(1);
  A(1, 2) = -R * sin(q(3));
  return A;
}

template <class Scalar>
Matrix<Scalar> RollingDisk<Scalar>::do_distribution(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  const Scalar R = parameters_.radius;
  Matrix<Scalar> X = Matrix<Scalar>::Zero(4, 2);
  X(0, 0) = R * cos(q(3));
  X(1, 0) = R * sin(q(3));
  X(2, 0) = Scalar(1);
  X(3, 1) = Scalar(1);
  return X;
}

template <class Scalar>
Vector<Scalar> RollingDisk<Scalar>::do_inequality(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  const Scalar R = parameters_.radius, a = parameters_.table_radius;
  const Scalar c = R * cos(q(3)), s = R * sin(q(3));
  Vector<Scalar> g(2);
  for (int j = 0; j < 2; ++j) {
    const Scalar sign = j == 0 ? Scalar(1) : Scalar(-1);
    const Scalar ex = q(0) + sign * c, ey = q(1) + sign * s;
    // (|e| - a)(|e| + a) would need a square root; this difference loses only a^2 eps near 0.
    g(j) = ex * ex + ey * ey - a * a;
  }
  return g;
}

template <class Scalar>
Matrix<Scalar> RollingDisk<Scalar>::do_inequality_gradient(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  const Scalar R = parameters_.radius;
  const Scalar c = R * cos(q(3)), s = R * sin(q(3));
  Matrix<Scalar> W = Matrix<Scalar>::Zero(4, 2);
  for (int j = 0; j < 2; ++j) {
    const Scalar sign = j == 0 ? Scalar(1) : Scalar(-1);
    const Scalar ex = q(0) + sign * c, ey = q(1) + sign * s;
    W(0, j) = Scalar(2) * ex;
    W(1, j) = Scalar(2) * ey;
    // d/dphi of (x + sign R cos phi)^2 + (y + sign R sin phi)^2.
    W(3, j) = Scalar(2) * sign * (ey * c - ex * s);
  }
  return W;
}

template <class Scalar>
State<Scalar> RollingDisk<Scalar>::do_exact_flow(const State<Scalar>& start,
                                                 const Scalar& tau) const {
  using std::cos;
  using std::sin;
  const Scalar R = parameters_.radius;
  const Scalar Omega = start.v(2), omega = start.v(3);
  const Scalar half_turn = omega * tau / 2;
  const Scalar heading = start.q(3) + half_turn;
  // sin(phi0 + omega t) - sin(phi0) = 2 cos(phi0 + omega t/2) sin(omega t/2), without the
  // cancellation of the difference and without dividing by omega.
  const Scalar travel = R * Omega * tau * sinc<Scalar>(half_turn);
  State<Scalar> end;
  end.t = start.t + tau;
  end.q = start.q;
  end.q(0) += travel * cos(heading);
  end.q(1) += travel * sin(heading);
  end.q(2) += Omega * tau;
  end.q(3) += omega * tau;
  end.v = velocity(end.q, Omega, omega);
  return end;
}

template class RollingDisk<double>;
template class RollingDisk<Real50>;

}  // namespace nsh
