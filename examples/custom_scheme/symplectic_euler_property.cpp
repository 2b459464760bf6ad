// A small scheme written against nsh's public API, stamped with every shared property.
//
// Symplectic (semi-implicit) Euler with an impact LCP at velocity level:
//   v_free  = v_k + h M^{-1} (F(t_k) - C v_k - K q_k)
//   I       = { a : g^a_k + h U^a_k <= 0 and U^a_k <= 0 }
//   0 <= U_{k+1} + e o U_k  _|_  P >= 0 on I,   v_{k+1} = v_free + M^{-1} G P
//   q_{k+1} = q_k + h v_{k+1}
// It claims what it can prove: the impulse LCP's properties and the momentum balance
// c^T M [v] = h c^T F along K c = C c = G^T c = 0.
#include <nsh/error.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/properties/stamp.hpp>

#include <Eigen/LU>

namespace {

class SymplecticEuler : public nsh::Scheme<double> {
 public:
  explicit SymplecticEuler(const nsh::SchemeSpec&) {}
  nsh::SchemeInfo info() const override {
    nsh::SchemeInfo i;
    i.family = "symplectic-euler";
    i.spec = "symplectic-euler";
    i.smooth_order = 1;
    return i;
  }
  void initialize(const nsh::LinearModel<double>& model, const nsh::State<double>&,
                  const double& h) override {
    model_ = &model;
    h_ = h;
    lu_.compute(model.M);
    minv_g_ = lu_.solve(model.G);
  }
  void step(nsh::State<double>& x, nsh::StepSummary<double>& s) override {
    const auto& m = *model_;
    const nsh::Vector<double> F = m.force(x.t);
    const nsh::Vector<double> U = m.local_velocity(x.v), g = m.gap(x.q);
    nsh::Vector<double> v = x.v + h_ * lu_.solve(F - m.C * x.v - m.K * x.q);
    std::vector<nsh::Index> active;
    for (nsh::Index a = 0; a < m.contacts(); ++a)
      if (g(a) + h_ * U(a) <= 0 && U(a) <= 0) active.push_back(a);
    nsh::Vector<double> P = nsh::Vector<double>::Zero(m.contacts());
    s.lcp = nsh::LcpResult<double>{};
    s.lcp.status = nsh::LcpStatus::solved;
    s.lcp.certificate.accepted = true;
    s.lcp_solved = !active.empty();
    if (!active.empty()) {
      const auto k = static_cast<nsh::Index>(active.size());
      nsh::Matrix<double> W(k, k);
      nsh::Vector<double> b(k);
      for (nsh::Index i = 0; i < k; ++i) {
        for (nsh::Index j = 0; j < k; ++j) W(i, j) = m.G.col(active[i]).dot(minv_g_.col(active[j]));
        b(i) = m.G.col(active[i]).dot(v) + m.e(active[i]) * U(active[i]);
      }
      s.lcp = nsh::solve_lcp<double>(nsh::LcpMethod::lemke, W, b);
      if (!s.lcp.ok()) throw nsh::StepError("symplectic-euler: impulse LCP not certified");
      for (nsh::Index i = 0; i < k; ++i) P(active[i]) = s.lcp.z(i);
      v += minv_g_ * P;
    }
    s.t_before = x.t;
    s.t_after = x.t + h_;
    s.h = h_;
    s.index_set = active;
    s.impulse = P;
    s.gap_before = g;
    s.velocity_before = U;
    s.velocity_newton = U;
    s.external_impulse = h_ * F;
    x.q += h_ * v;
    x.v = v;
    x.t += h_;
    s.gap_after = m.gap(x.q);
    s.velocity_after = m.local_velocity(x.v);
  }

 private:
  const nsh::LinearModel<double>* model_{nullptr};
  double h_{0};
  Eigen::PartialPivLU<nsh::Matrix<double>> lu_;
  nsh::Matrix<double> minv_g_;
};

// Register the scheme and its claims before the stamped tests run.
const bool registered = [] {
  nsh::SchemeEntry entry;
  entry.name = "symplectic-euler";
  entry.summary = "symplectic Euler with a velocity-level impact LCP (custom_scheme example)";
  entry.make_double = [](const nsh::SchemeSpec& s) { return std::make_unique<SymplecticEuler>(s); };
  nsh::properties::ensure_registered(std::move(entry));
  nsh::properties::declare_claims("symplectic-euler", [](const nsh::SchemeSpec&) {
    std::vector<nsh::properties::Claim> claims;
    for (const char* p : {"signorini_complementarity", "newton_restitution", "lcp_certificate",
                          "momentum_balance", "impact_work_nonpositive"})
      claims.push_back({p, "every model (impulse LCP with U_k <= 0 on the index set)", {}, {}});
    return claims;
  });
  return true;
}();

}  // namespace

NSH_STAMP_SCHEME(SymplecticEuler, "symplectic-euler")
