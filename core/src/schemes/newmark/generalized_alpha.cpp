// Nonsmooth Newmark / HHT / generalized-alpha: the double instantiation and the members' own
// parameter maps.
#include "generalized_alpha.hxx"

namespace nsh {

template class NewmarkFamily<double>;

NewmarkParameters NewmarkOptions::parameters() const {
  return NewmarkParameters{Rational(0), Rational(0), beta, gamma};
}

NewmarkParameters HhtOptions::parameters() const {
  NewmarkParameters p;
  p.alpha_m = 0;
  p.alpha_f = -alpha;
  p.gamma = Rational(1) / 2 - alpha;
  p.beta = (1 - alpha) * (1 - alpha) / 4;
  return p;
}

void GenAlphaOptions::resolve(const std::string& scheme) {
  const bool gamma_given = resolve_form(scheme);
  if (!rho && !gamma_given && (*gamma < 0 || *gamma > 2))
    throw SpecError(scheme + ":gamma",
                    "the default gamma = 1/2 + alpha_f - alpha_m = " + format_scalar(*gamma) +
                        " is outside [0, 2]; give gamma explicitly");
}

}  // namespace nsh
