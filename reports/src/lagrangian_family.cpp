// Whether the lagrangian family is built in (nsh/reports/lagrangian_family.hpp).
#include <nsh/error.hpp>
#include <nsh/reports/lagrangian_family.hpp>

namespace nsh::reports {

bool lagrangian_family_available() {
#ifdef NSH_HAVE_FORMULA
  return true;
#else
  return false;
#endif
}

void refuse_lagrangian_without_formula(const CaseDocument& document) {
  throw InputError("family", "case " + document.name +
                                 " is of family 'lagrangian', whose formulas need the formula "
                                 "module: this nsh was built without GiNaC (Debian: apt-get "
                                 "install libginac-dev, then reconfigure and rebuild)");
}

}  // namespace nsh::reports
