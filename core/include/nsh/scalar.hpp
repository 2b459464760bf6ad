#pragma once
// The scalar types nsh runs every numerical algorithm in, and what each can do.
//
// double    the CI path;
// Real50    50 significant decimal digits, expression templates off (Eigen needs that);
// Rational  exact, for every scheme that needs no sqrt, exp or iteration.
//
// Include this header before any other Boost.Multiprecision or Eigen header that touches the
// Boost types: it carries a fix for Boost 1.74 that must be seen before the first use.

#include <Eigen/Core>
#include <boost/multiprecision/traits/is_byte_container.hpp>

#include <iterator>
#include <limits>
#include <tuple>
#include <type_traits>

namespace boost::multiprecision::detail {
// Boost 1.74's cpp_int asks every type that has a `const_iterator` whether it is a byte
// container; Eigen 3.4 types declare `const_iterator = void` for matrices, which turns the
// question into a hard error inside Eigen's scalar-promotion SFINAE. Answer "no" for them.
template <class C>
struct is_byte_container_imp<C, true> {
  using iterator = typename C::const_iterator;
  static constexpr bool compute() {
    if constexpr (std::is_void_v<iterator>) {
      return false;
    } else {
      using V = std::remove_cv_t<typename std::iterator_traits<iterator>::value_type>;
      return std::is_integral_v<V> && sizeof(V) == 1;
    }
  }
  static const bool value = compute();
};
}  // namespace boost::multiprecision::detail

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <boost/multiprecision/eigen.hpp>

namespace nsh {

using Real50 = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<50>,
                                             boost::multiprecision::et_off>;
using Rational = boost::multiprecision::number<boost::multiprecision::cpp_rational::backend_type,
                                               boost::multiprecision::et_off>;

template <class Scalar>
using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
template <class Scalar>
using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
using Index = Eigen::Index;

/// What nsh needs to know about a scalar type, written once per type: adding a scalar (e.g. a
/// 100-digit float) is one specialization here plus one entry in NSH_FOR_EACH_SCALAR. The
/// primary template is left undefined, so a type nsh does not run in is a compile error.
///   is_exact             arithmetic without round-off: every tolerance is zero there;
///   has_transcendentals  sqrt, exp and sin exist;
///   name                 the short name of CLI flags (--precision), CSV headers and messages.
template <class Scalar>
struct ScalarTraits;

template <>
struct ScalarTraits<double> {
  static constexpr bool is_exact = false;
  static constexpr bool has_transcendentals = true;
  static constexpr const char* name = "double";
};

template <>
struct ScalarTraits<Real50> {
  static constexpr bool is_exact = false;
  static constexpr bool has_transcendentals = true;
  static constexpr const char* name = "50";
};

template <>
struct ScalarTraits<Rational> {
  static constexpr bool is_exact = true;
  static constexpr bool has_transcendentals = false;
  static constexpr const char* name = "rational";
};

/// X(double) X(Real50) X(Rational): the scalars every scheme is instantiated for, in the order
/// of --precision's choices. For explicit instantiations written once, e.g.
///   #define NSH_INSTANTIATE(Scalar) template class CatchingUp<Scalar>;
///   NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#define NSH_FOR_EACH_SCALAR(X) X(double) X(::nsh::Real50) X(::nsh::Rational)

/// The same scalars as a type list, for code that needs one value per scalar (PerScalar).
template <class... Scalars>
struct ScalarList {};
using AllScalars = ScalarList<double, Real50, Rational>;
/// The scalars with sqrt, exp and sin: what a scheme that needs them is instantiated for.
using InexactScalars = ScalarList<double, Real50>;

namespace detail {
template <template <class> class Of, class List>
struct PerScalarTuple;
template <template <class> class Of, class... Scalars>
struct PerScalarTuple<Of, ScalarList<Scalars...>> {
  using type = std::tuple<Of<Scalars>...>;
};
}  // namespace detail

/// One Of<Scalar> for each scalar of AllScalars, looked up by type: a registry entry holds its
/// scheme factories this way (entry.make.get<Real50>()), so that adding a scalar is a trait and
/// a list entry here, not a field in every entry and a branch in every caller.
template <template <class> class Of>
class PerScalar {
 public:
  template <class Scalar>
  Of<Scalar>& get() {
    return std::get<Of<Scalar>>(values_);
  }
  template <class Scalar>
  const Of<Scalar>& get() const {
    return std::get<Of<Scalar>>(values_);
  }

 private:
  typename detail::PerScalarTuple<Of, AllScalars>::type values_;
};

/// True for arithmetic without round-off: every tolerance is zero there.
template <class Scalar>
inline constexpr bool is_exact_v = ScalarTraits<Scalar>::is_exact;

/// True where sqrt, exp and sin exist (everything but Rational).
template <class Scalar>
inline constexpr bool has_transcendentals_v = ScalarTraits<Scalar>::has_transcendentals;

/// Machine epsilon of the scalar; zero for exact arithmetic.
template <class Scalar>
Scalar epsilon() {
  if constexpr (is_exact_v<Scalar>) {
    return Scalar(0);
  } else {
    return std::numeric_limits<Scalar>::epsilon();
  }
}

/// A relative tolerance for a computation of `operations` rounding steps at magnitude `scale`:
/// operations * epsilon * scale; zero in Rational. Every tolerance in nsh goes through here or
/// through an explicit multiple of epsilon, never a bare literal.
template <class Scalar>
Scalar tolerance(const Scalar& scale, const Scalar& operations = Scalar(64)) {
  return operations * epsilon<Scalar>() * scale;
}

/// Short name used in CLI flags, CSV headers and messages.
template <class Scalar>
constexpr const char* scalar_name() {
  return ScalarTraits<Scalar>::name;
}

/// Convert between scalar types (double -> Rational is exact: every double is a dyadic rational).
template <class To, class From>
To scalar_cast(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_same_v<From, double>) {
    return To(x);
  } else if constexpr (std::is_same_v<To, double>) {
    return x.template convert_to<double>();
  } else {
    return To(x);
  }
}

template <class To, class From>
Vector<To> scalar_cast(const Vector<From>& x) {
  Vector<To> y(x.size());
  for (Index i = 0; i < x.size(); ++i) y(i) = scalar_cast<To>(x(i));
  return y;
}

template <class To, class From>
Matrix<To> scalar_cast(const Matrix<From>& x) {
  Matrix<To> y(x.rows(), x.cols());
  for (Index i = 0; i < x.rows(); ++i)
    for (Index j = 0; j < x.cols(); ++j) y(i, j) = scalar_cast<To>(x(i, j));
  return y;
}

/// |x| without relying on ADL quirks across the three types.
template <class Scalar>
Scalar abs_value(const Scalar& x) {
  return x < Scalar(0) ? Scalar(-x) : x;
}

/// Max-norm, defined for every scalar (no sqrt).
template <class Derived>
typename Derived::Scalar max_abs(const Eigen::MatrixBase<Derived>& x) {
  using Scalar = typename Derived::Scalar;
  if constexpr (std::is_same_v<Scalar, double> && Derived::IsVectorAtCompileTime) {
    // Four running maxima, so that the compares do not wait on one another (a step at 10^3
    // dofs takes two of these). The maximum does not depend on the order, and NaN entries are
    // skipped as below.
    double m0 = 0, m1 = 0, m2 = 0, m3 = 0;
    const Index size = x.size();
    Index i = 0;
    for (; i + 4 <= size; i += 4) {
      const double a0 = abs_value(x(i)), a1 = abs_value(x(i + 1)), a2 = abs_value(x(i + 2)),
                   a3 = abs_value(x(i + 3));
      m0 = a0 > m0 ? a0 : m0;
      m1 = a1 > m1 ? a1 : m1;
      m2 = a2 > m2 ? a2 : m2;
      m3 = a3 > m3 ? a3 : m3;
    }
    for (; i < size; ++i) {
      const double a = abs_value(x(i));
      m0 = a > m0 ? a : m0;
    }
    m0 = m1 > m0 ? m1 : m0;
    m2 = m3 > m2 ? m3 : m2;
    return m2 > m0 ? m2 : m0;
  }
  Scalar m(0);
  for (Index j = 0; j < x.cols(); ++j)
    for (Index i = 0; i < x.rows(); ++i) {
      Scalar a = abs_value<Scalar>(x(i, j));
      if (a > m) m = a;
    }
  return m;
}

/// True if x is a finite number (always true for Rational).
template <class Scalar>
bool is_finite(const Scalar& x) {
  if constexpr (is_exact_v<Scalar>) {
    return true;
  } else {
    using boost::multiprecision::isfinite;
    using std::isfinite;
    return isfinite(x);
  }
}

}  // namespace nsh
