#pragma once
// The worked examples of seed 004 (docs/theory.md §6) as exact rationals.
//
// Two-body impact (example 2): m1 = 2, m2 = 3, v1- = -n, v2- = +n (n = 1), e = 1/2,
//   1/m1 + 1/m2 = 5/6, v_n = -2, J = 18/5, v1+ = 4/5, v2+ = -1/5, momentum 1 before and after,
//   K- = 5/2, K+ = 7/10, Delta K = -9/5 = -(1 - e^2) v_n^2 / (2 * 5/6) = 1/2 (U+ + U-) J.
// Free flight (example 3): mass 2, gap g(s) = 1 - 2s, contact at s = 1/2 with v- = -2, K- = 4;
//   e = 0: J = 4, v+ = 0, K+ = 0;  e = 1: J = 8, v+ = 2, K+ = 4.

#include <nsh/scalar.hpp>

namespace nsh::cases {

struct TwoBodyFacts {
  Rational m1{2}, m2{3}, e{Rational(1) / 2};
  Rational inverse_reduced_mass{Rational(5) / 6};
  Rational v_n{-2};
  Rational J{Rational(18) / 5};
  Rational v1_plus{Rational(4) / 5}, v2_plus{Rational(-1) / 5};
  Rational momentum{1};
  Rational K_minus{Rational(5) / 2}, K_plus{Rational(7) / 10}, delta_K{Rational(-9) / 5};
};

struct FreeFlightFacts {
  Rational mass{2};
  Rational contact_time{Rational(1) / 2};
  Rational v_minus{-2};
  Rational K_minus{4};
  Rational J;       ///< 4 for e = 0, 8 for e = 1
  Rational v_plus;  ///< 0 for e = 0, 2 for e = 1
  Rational K_plus;  ///< 0 for e = 0, 4 for e = 1
};

TwoBodyFacts two_body_facts();
/// e must be 0 or 1 (the two endpoints the seed works out); InputError otherwise.
FreeFlightFacts free_flight_facts(const Rational& e);

}  // namespace nsh::cases
