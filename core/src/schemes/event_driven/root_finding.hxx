// Root finding for the event-driven flow (nsh/schemes/event_driven.hpp): the first zero of a
// monitor polynomial (a gap or a multiplier as a Taylor polynomial of the segment), bracketed by
// sampling with a check of every local minimum and refined by safeguarded Newton. A pure function
// of the coefficients, tested on polynomials with known roots in core/tests/event_driven_test.cpp.
#pragma once

#include <nsh/scalar.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace nsh::event_driven::detail {

template <class Scalar>
Scalar horner(const std::vector<Scalar>& c, const Scalar& s) {
  Scalar r(0);
  for (std::size_t k = c.size(); k-- > 0;) r = r * s + c[k];
  return r;
}

template <class Scalar>
Scalar horner_derivative(const std::vector<Scalar>& c, const Scalar& s) {
  Scalar r(0);
  for (std::size_t k = c.size(); k-- > 1;) r = r * s + Scalar(static_cast<long>(k)) * c[k];
  return r;
}

/// Outcome of the root search on one monitor over (0, S].
template <class Scalar>
struct Root {
  Scalar s{0};
  bool immediate{false};  ///< the monitor is already moving to the wrong side at s = 0
  int order{0};           ///< index of the leading nonzero coefficient (0: value, 1: rate, ...)
};

/// First s in [0, S] where the monitor p(s) = sum c_k s^k, positive on the admissible side,
/// reaches zero. Leading coefficients with |c_k| <= zero_tol[k] count as zero (a monitor
/// that starts on its boundary is deflated), so a contact that has just opened is not found
/// again at s = 0. A monitor that is identically zero never fires.
template <class Scalar>
std::optional<Root<Scalar>> first_root(const std::vector<Scalar>& c, const Scalar& S,
                                       const std::vector<Scalar>& zero_tol, const Scalar& s_tol) {
  std::size_t k0 = 0;
  for (; k0 < c.size(); ++k0)
    if (abs_value<Scalar>(c[k0]) > zero_tol[k0]) break;
  if (k0 == c.size()) return std::nullopt;
  if (c[k0] < Scalar(0)) return Root<Scalar>{Scalar(0), true, static_cast<int>(k0)};
  const std::vector<Scalar> r(c.begin() + static_cast<long>(k0), c.end());
  if (r.size() == 1) return std::nullopt;  // a positive constant
  constexpr int samples = 16;
  auto refine = [&](Scalar lo, Scalar hi) {
    // r(lo) > 0 >= r(hi): safeguarded Newton, bisection whenever Newton leaves the bracket.
    Scalar x = hi;
    for (int it = 0; it < 400; ++it) {
      const Scalar fx = horner(r, x);
      if (fx == Scalar(0)) return x;
      if (fx > Scalar(0))
        lo = x;
      else
        hi = x;
      const Scalar dx = horner_derivative(r, x);
      Scalar next = dx != Scalar(0) ? Scalar(x - fx / dx) : Scalar((lo + hi) / 2);
      if (!(next > lo && next < hi)) next = (lo + hi) / 2;
      const Scalar step = abs_value<Scalar>(next - x);
      x = next;
      if (step <= s_tol || hi - lo <= s_tol) break;
    }
    // Return a point on the far side (r <= 0), a few s_tol past the root at most: a multiplier
    // that has reached zero then drives the free motion away from the contact, and a gap is
    // reached rather than approached, so the next mode decision is not undone at s = 0.
    if (horner(r, x) > Scalar(0)) {
      Scalar d = s_tol;
      while (x + d < hi && horner(r, Scalar(x + d)) > Scalar(0)) d *= 2;
      x = x + d < hi ? Scalar(x + d) : hi;
    }
    return x;
  };
  Scalar a(0);
  Scalar da = horner_derivative(r, a);
  for (int j = 1; j <= samples; ++j) {
    const Scalar b = j == samples ? S : Scalar(S * Scalar(j) / Scalar(samples));
    const Scalar rb = horner(r, b);
    const Scalar db = horner_derivative(r, b);
    if (rb <= Scalar(0)) return Root<Scalar>{refine(a, b), false, static_cast<int>(k0)};
    if (da < Scalar(0) && db > Scalar(0)) {
      // A local minimum inside: a grazing approach that may dip below zero between samples.
      Scalar lo = a, hi = b;
      for (int it = 0; it < 400 && hi - lo > s_tol; ++it) {
        const Scalar mid = (lo + hi) / 2;
        if (horner_derivative(r, mid) < Scalar(0))
          lo = mid;
        else
          hi = mid;
      }
      const Scalar m = (lo + hi) / 2;
      if (horner(r, m) <= Scalar(0)) return Root<Scalar>{refine(a, m), false, static_cast<int>(k0)};
    }
    a = b;
    da = db;
  }
  return std::nullopt;
}

/// Spectral bound rho of the balanced first-order operator, computed in double (DESIGN: spectral

}  // namespace nsh::event_driven::detail
