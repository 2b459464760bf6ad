#include <nsh/scalar.hpp>

#include <nsh/cases/cradle.hpp>
#include <nsh/cases/seed004.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

namespace nsh::cases {

TwoBodyFacts two_body_facts() {
  return TwoBodyFacts{};
}

FreeFlightFacts free_flight_facts(const Rational& e) {
  FreeFlightFacts f;
  if (e == Rational(0)) {
    f.J = Rational(4);
    f.v_plus = Rational(0);
    f.K_plus = Rational(0);
  } else if (e == Rational(1)) {
    f.J = Rational(8);
    f.v_plus = Rational(2);
    f.K_plus = Rational(4);
  } else {
    throw InputError("e", "seed 004 works out e = 0 and e = 1 only, got " + format_scalar(e));
  }
  return f;
}

Vector<Rational> cradle_lcp_velocities(Index balls, const Rational& v) {
  if (balls < 2) throw InputError("balls", "a cradle needs at least 2 balls");
  const Rational N(balls);
  Vector<Rational> out = Vector<Rational>::Constant(balls, Rational(2) * v / N);
  out(0) = -(N - Rational(2)) * v / N;
  return out;
}

Vector<Rational> cradle_textbook_velocities(Index balls, const Rational& v) {
  if (balls < 2) throw InputError("balls", "a cradle needs at least 2 balls");
  Vector<Rational> out = Vector<Rational>::Zero(balls);
  out(balls - 1) = v;
  return out;
}

Vector<Rational> cradle_lcp_impulses(Index balls, const Rational& v) {
  if (balls < 2) throw InputError("balls", "a cradle needs at least 2 balls");
  const Rational N(balls);
  Vector<Rational> P(balls - 1);
  for (Index a = 0; a < balls - 1; ++a) P(a) = Rational(2) * v * (N - Rational(a + 1)) / N;
  return P;
}

}  // namespace nsh::cases
