// Every shared property, stamped on the scheme of symplectic_euler.cpp (which registers it with
// its claims when the executable starts): one gtest per property, skipped with the reason where
// it is not claimed, plus the designed searches and the check that the scheme claims something.
#include <nsh/properties/stamp.hpp>

NSH_STAMP_SCHEME(SymplecticEuler, "symplectic-euler")
