// A small scheme written against nsh's public API: the scheme and its registration. The same
// file makes the plugin that `nsh --plugin` loads (every nsh command then knows
// "symplectic-euler") and, with symplectic_euler_property.cpp, the stamped test executable.
//
// Symplectic (semi-implicit) Euler with an impact LCP at velocity level:
//   v_free  = v_k + h M^{-1} (F(t_k) - C v_k - K q_k)
//   I       = { a : g^a_k + h U^a_k <= 0 and U^a_k <= 0 }
//   0 <= U_{k+1} + e o U_k  _|_  P >= 0 on I,   v_{k+1} = v_free + M^{-1} G P
//   q_{k+1} = q_k + h v_{k+1}
// The scheme kit (nsh/schemes/scheme.hpp) derives the times, gaps, local velocities and
// energies of every step from the states; nsh::impulse_step solves and certifies the impulse
// LCP and records the index set and impulses. The scheme records only its external impulse.
// It claims what it can prove: the impulse LCP's properties and the momentum balance
// c^T M [v] = h c^T F along K c = C c = G^T c = 0 (docs/adding-a-scheme.md).
#include <nsh/impulse_step.hpp>
#include <nsh/properties/claims.hpp>

#include <Eigen/LU>

namespace {

class SymplecticEuler : public nsh::Scheme<double> {
 public:
  explicit SymplecticEuler(const nsh::SchemeSpec&) {}
  nsh::SchemeInfo info() const override {
    nsh::SchemeInfo i;
    i.family = "symplectic-euler";
    i.spec = "symplectic-euler";  // names this scheme's registry entry, where its claims are
    i.smooth_order = 1;
    return i;
  }

 private:
  void do_initialize(const nsh::LinearModel<double>& model, const nsh::State<double>&,
                     const double& h) override {
    model_ = &model;
    h_ = h;
    lu_.compute(model.M);
    minv_g_ = model.contacts() ? nsh::Matrix<double>(lu_.solve(model.G))
                               : nsh::Matrix<double>(model.dofs(), 0);
    delassus_ = model.G.transpose() * minv_g_;
  }
  void do_step(nsh::State<double>& x, nsh::StepSummary<double>& s) override {
    const auto& m = *model_;
    const nsh::Vector<double> F = m.force(x.t), U = m.local_velocity(x.v), g = m.gap(x.q);
    const nsh::Vector<double> v_free = x.v + h_ * lu_.solve(F - m.C * x.v - m.K * x.q);
    std::vector<nsh::Index> active;
    for (nsh::Index a = 0; a < m.contacts(); ++a)
      if (g(a) + h_ * U(a) <= 0 && U(a) <= 0) active.push_back(a);
    nsh::impulse_step<double>({"symplectic-euler"}, {}, active, delassus_, minv_g_, m.G, m.e,
                              v_free, U, x.t, work_, x.v, s);
    s.external_impulse = h_ * F;
    x.q += h_ * x.v;
    x.t += h_;
  }

  const nsh::LinearModel<double>* model_{nullptr};
  double h_{0};
  Eigen::PartialPivLU<nsh::Matrix<double>> lu_;
  nsh::Matrix<double> minv_g_, delassus_;
  nsh::ImpulseStepWorkspace<double> work_;
};

// Register the scheme with its claims, in one call, before the stamped tests run.
const bool registered = [] {
  nsh::SchemeEntry entry;
  entry.name = "symplectic-euler";
  entry.summary = "symplectic Euler with a velocity-level impact LCP (custom_scheme example)";
  entry.make.get<double>() = [](const nsh::SchemeSpec& s) {
    return std::make_unique<SymplecticEuler>(s);
  };
  nsh::properties::register_scheme(std::move(entry), [](const nsh::SchemeInfo&) {
    std::vector<nsh::properties::Claim> claims;
    for (const char* p : {"signorini_complementarity", "newton_restitution", "lcp_certificate",
                          "momentum_balance", "impact_work_nonpositive"})
      claims.push_back({p, "every model (impulse LCP with U_k <= 0 on the index set)", {}, {}});
    return claims;
  });
  return true;
}();

}  // namespace
