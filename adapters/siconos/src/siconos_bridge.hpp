#pragma once
// The one place nsh talks to Siconos 4.4's C++ kernel (docs/siconos.md). Siconos' headers do
// not compile as C++20 (Boost uBLAS calls std::allocator::construct, removed in C++20), so the
// bridge is a C++17 translation unit behind this header, which names no Siconos and no Eigen
// type: plain arrays in, plain arrays out.

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace nsh::siconos_bridge {

/// M q'' + C v + K q = F + F_amplitude sin(omega t) + G lambda, g = G^T q + w (docs/theory.md §1).
struct LinearSystem {
  int n{0};                         ///< degrees of freedom
  int m{0};                         ///< contacts
  std::vector<double> M, C, K;      ///< n x n, row-major
  std::vector<double> F;            ///< n
  std::vector<double> F_amplitude;  ///< n, empty or zero: no harmonic part
  double omega{0};
  std::vector<double> G;       ///< n x m, column-major: column a = gradient of gap a
  std::vector<double> w, e;    ///< m
  std::vector<double> q0, v0;  ///< n
  double t0{0};
  double h{0};
};

/// Which Siconos one-step integrator, and its parameters.
struct Options {
  enum class Integrator {
    moreau_jean,      ///< MoreauJeanOSI(theta[, gamma]), velocity-level LCP on index set 1
    schatzman_paoli,  ///< SchatzmanPaoliOSI(theta), position-level LCP on index set 0
    d1_minus_linear,  ///< D1MinusLinearOSI + TimeSteppingD1Minus: impact LCP on index set 1
    event_driven,     ///< LsodarOSI + EventDriven: impact LCP at each impact, flow in between
    newmark_alpha     ///< NewMarkAlphaOSI + EventDriven: Newton-iterated generalized-alpha steps,
                      ///< position-level contact LCP, impact LCP at each located impact
  };
  Integrator integrator{Integrator::moreau_jean};
  double theta{0.5};
  /// MoreauJeanOSI's gamma (the index set's g_k + gamma h U_k <= 0); NaN: Siconos' default.
  double gamma{std::numeric_limits<double>::quiet_NaN()};
  /// LsodarOSI's relative and absolute tolerances (scalar, itol = 1), event_driven only.
  double rtol{1e-10};
  double atol{1e-12};
  /// NewMarkAlphaOSI(rho_inf, false): the spectral radius at infinity, newmark_alpha only.
  double rho{0.5};
};

/// One Siconos simulation (TimeStepping, or EventDriven on the grid), advanced one step at a time.
/// Every Siconos exception comes out as std::runtime_error with Siconos' message (the text a
/// Siconos::exception carries as boost::error_info, and where it was thrown: its what() says only
/// "std::exception").
class Simulation {
 public:
  Simulation(const LinearSystem& system, const Options& options);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  void step();
  const std::vector<double>& q() const;
  const std::vector<double>& v() const;
  /// The multiplier of each contact's Interaction at the integrator's level: lambda(1), the
  /// impulse of the step, for MoreauJeanOSI and D1MinusLinearOSI; for EventDriven, the sum of
  /// lambda(1) over the impacts inside the step (zero without one); lambda(0), the position-level
  /// multiplier p_{k+1} of M (q_{k+1} - 2 q_k + q_{k-1}) = ... + G p_{k+1}, for SchatzmanPaoliOSI
  /// (zero when inactive).
  const std::vector<double>& impulse() const;
  /// The contacts in the index set the step's LCP was posed on (index set 1 for MoreauJeanOSI and
  /// D1MinusLinearOSI, index set 0, every contact, for SchatzmanPaoliOSI; for EventDriven, the
  /// union of index set 1 over the impacts inside the step), ascending.
  const std::vector<int>& index_set() const;
  /// EventDriven (both integrators): the impacts (non-smooth events) Siconos processed inside
  /// the step.
  int impacts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nsh::siconos_bridge
