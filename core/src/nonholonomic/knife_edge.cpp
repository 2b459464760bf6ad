#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/nonholonomic/knife_edge.hpp>

#include <cmath>

namespace nsh {

template <class Scalar>
KnifeEdge<Scalar>::KnifeEdge(const KnifeEdgeParameters<Scalar>& parameters)
    : parameters_(parameters) {
  const auto& p = parameters_;
  if (!(is_finite(p.mass) && p.mass > Scalar(0)))
    throw ModelError("m", "the mass must be > 0, got " + format_scalar(p.mass));
  if (!(is_finite(p.inertia) && p.inertia > Scalar(0)))
    throw ModelError("J", "the moment of inertia must be > 0, got " + format_scalar(p.inertia));
  if (!is_finite(p.wall)) throw ModelError("a", "the wall must be finite");
}

template <class Scalar>
Vector<Scalar> KnifeEdge<Scalar>::velocity(const Vector<Scalar>& q, const Scalar& speed,
                                           const Scalar& turning_rate) const {
  using std::cos;
  using std::sin;
  Vector<Scalar> v(3);
  v << speed * cos(q(2)), speed * sin(q(2)), turning_rate;
  return v;
}

template <class Scalar>
std::string KnifeEdge<Scalar>::coordinate_name(Index i) const {
  static const char* names[] = {"x", "y", "phi"};
  return i >= 0 && i < 3 ? names[i] : "?";
}

template <class Scalar>
std::string KnifeEdge<Scalar>::inequality_name(Index) const {
  return "g_wall";
}

template <class Scalar>
std::string KnifeEdge<Scalar>::reduced_velocity_name(Index i) const {
  static const char* names[] = {"speed", "turning_rate"};
  return i >= 0 && i < 2 ? names[i] : "?";
}

template <class Scalar>
Matrix<Scalar> KnifeEdge<Scalar>::do_mass(const Vector<Scalar>&) const {
  Matrix<Scalar> M = Matrix<Scalar>::Zero(3, 3);
  M(0, 0) = M(1, 1) = parameters_.mass;
  M(2, 2) = parameters_.inertia;
  return M;
}

template <class Scalar>
Scalar KnifeEdge<Scalar>::do_potential(const Vector<Scalar>&) const {
  return Scalar(0);
}

template <class Scalar>
Vector<Scalar> KnifeEdge<Scalar>::do_potential_gradient(const Vector<Scalar>&) const {
  return Vector<Scalar>::Zero(3);
}

template <class Scalar>
Matrix<Scalar> KnifeEdge<Scalar>::do_one_forms(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  Matrix<Scalar> A(1, 3);
  A << -sin(q(2)), cos(q(2)), Scalar(0);
  return A;
}

template <class Scalar>
Matrix<Scalar> KnifeEdge<Scalar>::do_distribution(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  Matrix<Scalar> X = Matrix<Scalar>::Zero(3, 2);
  X(0, 0) = cos(q(2));
  X(1, 0) = sin(q(2));
  X(2, 1) = Scalar(1);
  return X;
}

template <class Scalar>
Vector<Scalar> KnifeEdge<Scalar>::do_inequality(const Vector<Scalar>& q) const {
  Vector<Scalar> g(1);
  g(0) = q(0) - parameters_.wall;
  return g;
}

template <class Scalar>
Matrix<Scalar> KnifeEdge<Scalar>::do_inequality_gradient(const Vector<Scalar>&) const {
  Matrix<Scalar> W = Matrix<Scalar>::Zero(3, 1);
  W(0, 0) = Scalar(1);
  return W;
}

template <class Scalar>
State<Scalar> KnifeEdge<Scalar>::do_exact_flow(const State<Scalar>& start,
                                               const Scalar& tau) const {
  using std::cos;
  using std::sin;
  const Scalar speed = start.v(0) * cos(start.q(2)) + start.v(1) * sin(start.q(2));
  const Scalar omega = start.v(2);
  const Scalar half_turn = omega * tau / 2;
  const Scalar heading = start.q(2) + half_turn;
  const Scalar travel = speed * tau * sinc<Scalar>(half_turn);
  State<Scalar> end;
  end.t = start.t + tau;
  end.q = start.q;
  end.q(0) += travel * cos(heading);
  end.q(1) += travel * sin(heading);
  end.q(2) += omega * tau;
  end.v = velocity(end.q, speed, omega);
  return end;
}

template class KnifeEdge<double>;
template class KnifeEdge<Real50>;

}  // namespace nsh
