// The case without a closed form (two contacts, damping, harmonic force): the event-driven
// reference must finish its horizon, agree between double and Real50 event by event, and keep
// its exact energy and momentum balances on the grid.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using nsh::Real50;
using nsh::cases::test::load;

TEST(EventDrivenTwoContact, DoubleAndReal50AgreeEventByEvent) {
  const auto cd = load<double>("two-contact-forced");
  const auto cr = load<Real50>("two-contact-forced");
  const auto ed = nsh::compute_events<double>(cd.model, cd.initial, cd.T);
  const auto er = nsh::compute_events<Real50>(cr.model, cr.initial, cr.T);
  std::size_t impacts = 0;
  for (const auto& e : er) impacts += e.kind == nsh::EventKind::impact;
  EXPECT_GE(impacts, 2u);  // both stops are hit over the horizon
  ASSERT_EQ(ed.size(), er.size());
  for (std::size_t i = 0; i < ed.size(); ++i) {
    EXPECT_EQ(ed[i].kind, er[i].kind) << i;
    EXPECT_EQ(ed[i].contact, er[i].contact) << i;
    EXPECT_NEAR(ed[i].t, nsh::cases::test::to_double(er[i].t), 1e-9) << i;
    EXPECT_NEAR(ed[i].U_minus, nsh::cases::test::to_double(er[i].U_minus), 1e-9) << i;
    // Newton's law at every impact, and no energy gained.
    if (er[i].kind == nsh::EventKind::impact && er[i].U_minus < Real50(0)) {
      const Real50 e = cr.model.e(er[i].contact);
      EXPECT_LE(nsh::abs_value<Real50>(er[i].U_plus + e * er[i].U_minus), Real50("1e-40"));
      EXPECT_LE(er[i].E_after, er[i].E_before);
    }
  }
}

TEST(EventDrivenTwoContact, EnergyAndMomentumBalancesOnTheGrid) {
  const auto c = load<Real50>("two-contact-forced");
  auto scheme = nsh::Registry::builtin().make<Real50>("event-driven");
  const auto traj = nsh::record<Real50>(*scheme, c.model, c.initial, Real50(1) / 10, c.T);
  Real50 identity(0), momentum(0), contact_work(0);
  for (std::size_t k = 0; k < traj.steps.size(); ++k) {
    const auto& s = traj.steps[k];
    identity = std::max(identity, nsh::abs_value<Real50>(s.energy_identity_defect()));
    const nsh::Vector<Real50> r = c.model.M * (traj.states[k + 1].v - traj.states[k].v) -
                                  s.external_impulse - c.model.G * s.impulse;
    momentum = std::max(momentum, nsh::max_abs(r));
    EXPECT_LE(s.W_contact, Real50("1e-40"));  // impacts dissipate (Thomson-Tait)
    contact_work += s.W_contact;
  }
  EXPECT_LE(identity, Real50("1e-40"));
  EXPECT_LE(momentum, Real50("1e-40"));
  EXPECT_LT(contact_work, Real50(0));
}

TEST(EventDrivenTwoContact, BarSampledOnTheGridKeepsMomentumBalance) {
  const auto c = load<double>("impacting-bar");
  auto scheme = nsh::Registry::builtin().make<double>("event-driven");
  const auto traj = nsh::record<double>(*scheme, c.model, c.initial, 0.05, 2.5);
  double momentum = 0, identity = 0;
  for (std::size_t k = 0; k < traj.steps.size(); ++k) {
    const auto& s = traj.steps[k];
    const nsh::Vector<double> r = c.model.M * (traj.states[k + 1].v - traj.states[k].v) -
                                  s.external_impulse - c.model.G * s.impulse;
    momentum = std::max(momentum, r.cwiseAbs().maxCoeff());
    identity = std::max(identity, std::abs(s.energy_identity_defect()));
  }
  EXPECT_LE(momentum, 1e-11);
  EXPECT_LE(identity, 1e-11);
  // The wall's total impulse reverses the momentum: about 2 m v0 (minus the e = 0 loss).
  double total = 0;
  for (const auto& s : traj.steps) total += s.impulse(0);
  EXPECT_NEAR(total, 2.0, 0.05);
}

}  // namespace
