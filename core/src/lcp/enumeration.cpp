// Enumeration of complementary index sets (see nsh/lcp/enumeration.hpp).

#include <nsh/lcp/enumeration.hpp>

#include <nsh/error.hpp>

#include "dense_solve.hxx"

#include <string>

namespace nsh {

namespace {

template <class Scalar>
class IndexSetEnumerator {
 public:
  IndexSetEnumerator(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                     const LcpOptions<Scalar>& options)
      : W_(W), b_(b), options_(options), m_(b.size()), z_(m_), w_(m_), members_(m_) {
    ws_.resize(m_);
    scale_ = max_abs(W);
    if (max_abs(b) > scale_) scale_ = max_abs(b);
  }

  /// Number of index sets, or -1 if 2^m overflows the cap.
  Index set_count() const { return m_ >= 62 ? Index(-1) : (Index(1) << m_); }

  /// Try index set `mask`; true if z (then in z()) solves the LCP within tolerance.
  bool try_set(Index mask) {
    Index n = 0;
    for (Index i = 0; i < m_; ++i)
      if (mask & (Index(1) << i)) members_(n++) = i;
    for (Index r = 0; r < n; ++r) {
      for (Index c = 0; c < n; ++c) ws_.a(r, c) = W_(members_(r), members_(c));
      ws_.r(r) = -b_(members_(r));
    }
    // Round-off of an n-step elimination at the data's magnitude; zero in Rational.
    const Scalar pivot_tolerance = tolerance<Scalar>(scale_, Scalar(64 * (n + 1)));
    if (detail::solve_complete_pivoting(ws_, n, pivot_tolerance, pivot_tolerance) ==
        detail::DenseSolveOutcome::inconsistent)
      return false;
    z_.setZero();
    for (Index r = 0; r < n; ++r) z_(members_(r)) = ws_.x(r);
    w_ = b_;
    w_.noalias() += W_ * z_;
    return natural_map_within(z_, w_, lcp_tolerance(W_, b_, z_, options_));
  }

  const Vector<Scalar>& z() const { return z_; }

 private:
  const Matrix<Scalar>& W_;
  const Vector<Scalar>& b_;
  const LcpOptions<Scalar>& options_;
  Index m_;
  Scalar scale_{0};
  Vector<Scalar> z_, w_;
  Eigen::Matrix<Index, Eigen::Dynamic, 1> members_;
  detail::DenseSolveWorkspace<Scalar> ws_;
};

}  // namespace

template <class Scalar>
LcpResult<Scalar> solve_lcp_enumeration(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                        const LcpOptions<Scalar>& options) {
  LcpResult<Scalar> result;
  result.method = LcpMethod::enumeration;
  const Index m = b.size();
  IndexSetEnumerator<Scalar> enumerator(W, b, options);
  const Index count = enumerator.set_count();
  const bool capped = count < 0 || count > options.max_iterations;
  const Index limit = capped ? options.max_iterations : count;
  bool found = false;
  for (Index mask = 0; mask < limit; ++mask) {
    ++result.iterations;
    if (enumerator.try_set(mask)) {
      found = true;
      break;
    }
  }
  if (found) {
    result.z = enumerator.z();
  } else {
    result.z = Vector<Scalar>::Zero(m);
  }
  const char* uncertified = "enumeration's index set failed the certificate";
  if (found)
    certify_result<Scalar>(W, b, options, LcpStatus::solved, "", uncertified, result);
  else if (capped)
    certify_result<Scalar>(W, b, options, LcpStatus::max_iterations,
                           "enumeration stopped after " + std::to_string(limit) + " of 2^" +
                               std::to_string(m) + " index sets (max_iterations)",
                           uncertified, result);
  else
    certify_result<Scalar>(
        W, b, options, LcpStatus::no_solution,
        "no complementary index set of the 2^" + std::to_string(m) + " gives a solution",
        uncertified, result);
  return result;
}

template <class Scalar>
std::vector<Vector<Scalar>> enumerate_lcp_solutions(const Matrix<Scalar>& W,
                                                    const Vector<Scalar>& b,
                                                    const LcpOptions<Scalar>& options) {
  if (W.rows() != W.cols() || W.rows() != b.size())
    throw InputError("W", "must be square with b of matching size");
  IndexSetEnumerator<Scalar> enumerator(W, b, options);
  const Index count = enumerator.set_count();
  if (count < 0 || count > options.max_iterations)
    throw InputError("m", "2^" + std::to_string(b.size()) + " index sets exceed max_iterations = " +
                              std::to_string(options.max_iterations));
  std::vector<Vector<Scalar>> solutions;
  for (Index mask = 0; mask < count; ++mask) {
    if (!enumerator.try_set(mask)) continue;
    const Vector<Scalar>& z = enumerator.z();
    const Scalar same = lcp_tolerance(W, b, z, options);
    bool duplicate = false;
    for (const auto& s : solutions)
      if (max_abs(Vector<Scalar>(s - z)) <= same) duplicate = true;
    if (!duplicate) solutions.push_back(z);
  }
  return solutions;
}

#define NSH_INSTANTIATE_ENUMERATION(Scalar)                                                      \
  template LcpResult<Scalar> solve_lcp_enumeration(const Matrix<Scalar>&, const Vector<Scalar>&, \
                                                   const LcpOptions<Scalar>&);                   \
  template std::vector<Vector<Scalar>> enumerate_lcp_solutions(                                  \
      const Matrix<Scalar>&, const Vector<Scalar>&, const LcpOptions<Scalar>&);

NSH_INSTANTIATE_ENUMERATION(double)
NSH_INSTANTIATE_ENUMERATION(Real50)
NSH_INSTANTIATE_ENUMERATION(Rational)

}  // namespace nsh
