// Nonsmooth Krenk-Hogsberg alpha-scheme: the double instantiation and its parameter range.
#include "krenk_hogsberg.hxx"

namespace nsh {

template class KrenkHogsberg<double>;

void KrenkHogsbergOptions::resolve(const std::string& scheme) {
  resolve_form(scheme);
  if (!rho && (!(*gamma > 0) || *gamma > 2))
    throw SpecError(scheme + ":gamma",
                    "gamma = " + format_scalar(*gamma) +
                        " is out of range; accepted: a number in (0, 2] (the default is "
                        "1/2 + alpha_f - alpha_m)");
}

}  // namespace nsh
