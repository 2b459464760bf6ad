// Every built-in scheme gets every shared property it claims (the stamp, stamp.hpp).
#include <nsh/properties/stamp.hpp>

NSH_STAMP_SCHEME(MoreauJeanHalf, "moreau-jean")
NSH_STAMP_SCHEME(MoreauJeanSevenTenths, "moreau-jean:theta=7/10")
NSH_STAMP_SCHEME(MoreauJeanImplicit, "moreau-jean:theta=1")
NSH_STAMP_SCHEME(MoreauJeanSiconos, "moreau-jean:activation=position")
NSH_STAMP_SCHEME(Newmark, "newmark")
NSH_STAMP_SCHEME(Hht, "hht")
NSH_STAMP_SCHEME(GenAlpha, "gen-alpha")
NSH_STAMP_SCHEME(KrenkHogsberg, "krenk-hogsberg")
NSH_STAMP_SCHEME(HalfExplicitTdg, "half-explicit-tdg")
NSH_STAMP_SCHEME(ForecastingTrapezoidal, "forecasting-trapezoidal")
