#pragma once
// The nonsmooth Newmark family: one include for its three parts, and its registration.
//   nsh/schemes/newmark/splitting.hpp          what the members share (impulse step, options,
//                                              rho_inf map, ledger parts)
//   nsh/schemes/newmark/generalized_alpha.hpp  "newmark", "hht", "gen-alpha" (Chen et al.)
//   nsh/schemes/newmark/krenk_hogsberg.hpp     "krenk-hogsberg"

#include <nsh/registry.hpp>
#include <nsh/schemes/newmark/generalized_alpha.hpp>
#include <nsh/schemes/newmark/krenk_hogsberg.hpp>
#include <nsh/schemes/newmark/splitting.hpp>

namespace nsh {

/// Registers "newmark", "hht", "gen-alpha" and "krenk-hogsberg" (double, Real50, Rational).
void register_newmark_family(Registry& registry);

}  // namespace nsh
