// The probe of the fields a scheme's do_step wrote (nsh/recorded_fields.hpp): it sees every
// write, also of the value a field already held, reports nothing else, and gives every field
// it planted a sentinel in back its value, on success and when the step throws. Compiled and
// run in every build; Scheme::step calls it in debug builds only.
#include <nsh/recorded_fields.hpp>
#include <nsh/scalar.hpp>

#include <gtest/gtest.h>

#include <stdexcept>

namespace nsh {
namespace {

template <class Scalar>
StepSummary<Scalar> stale_summary() {
  StepSummary<Scalar> s;
  s.index_set = {0};
  s.impulse = Vector<Scalar>::Constant(2, Scalar(3));
  s.velocity_newton = Vector<Scalar>::Constant(2, Scalar(-1));
  s.external_impulse = Vector<Scalar>::Constant(3, Scalar(1) / Scalar(8));
  s.W_ext = Scalar(5);
  s.W_damp = Scalar(0);
  s.lcp.status = LcpStatus::solved;
  s.lcp.iterations = 2;
  return s;
}

template <class Scalar>
void same_values(const StepSummary<Scalar>& a, const StepSummary<Scalar>& b) {
  EXPECT_EQ(a.index_set, b.index_set);
  EXPECT_EQ(a.impulse, b.impulse);
  EXPECT_EQ(a.velocity_newton, b.velocity_newton);
  EXPECT_EQ(a.external_impulse, b.external_impulse);
  EXPECT_EQ(a.W_ext, b.W_ext);
  EXPECT_EQ(a.W_damp, b.W_damp);
  EXPECT_EQ(a.W_contact, b.W_contact);
  EXPECT_EQ(a.E_alg_after, b.E_alg_after);
  EXPECT_EQ(a.lcp.status, b.lcp.status);
  EXPECT_EQ(a.lcp.iterations, b.lcp.iterations);
}

template <class Scalar>
class RecordedFields : public ::testing::Test {};
using Scalars = ::testing::Types<double, Real50, Rational>;
TYPED_TEST_SUITE(RecordedFields, Scalars);

TYPED_TEST(RecordedFields, SeesEveryWriteAndOnlyThose) {
  using Scalar = TypeParam;
  using F = RecordedField;
  StepSummary<Scalar> s = stale_summary<Scalar>();
  const std::uint32_t mask = record_written_fields(s, [&] {
    s.W_damp = Scalar(0);                          // the value it held: still a write
    s.impulse.setZero();                           // in place
    s.external_impulse = Vector<Scalar>::Zero(4);  // resized
    s.lcp.status = LcpStatus::solved;
  });
  EXPECT_EQ(mask, bit(F::W_damp) | bit(F::impulse) | bit(F::external_impulse) | bit(F::lcp) |
                      // empty before and after: nothing to read, counted as written
                      bit(F::forecast_impulse) | bit(F::tangential_impulse) |
                      bit(F::forecast_tangential_impulse) | bit(F::acceleration_like_before) |
                      bit(F::acceleration_like_after))
      << recorded_field_names(mask);
  // What was not written holds its old value, not the sentinel.
  EXPECT_EQ(s.W_ext, Scalar(5));
  EXPECT_EQ(s.W_contact, Scalar(0));
  EXPECT_EQ(s.velocity_newton, Vector<Scalar>::Constant(2, Scalar(-1)));
  EXPECT_EQ(s.index_set, std::vector<Index>{0});
  EXPECT_EQ(s.lcp.iterations, 2);
}

TYPED_TEST(RecordedFields, AStepThatWritesNothingChangesNothing) {
  using Scalar = TypeParam;
  StepSummary<Scalar> s = stale_summary<Scalar>();
  const StepSummary<Scalar> before = s;
  const std::uint32_t mask = record_written_fields(s, [] {});
  same_values(s, before);
  EXPECT_EQ(recorded_field_names(mask & (bit(RecordedField::W_ext) | bit(RecordedField::impulse) |
                                         bit(RecordedField::index_set) | bit(RecordedField::lcp))),
            "");
  // A refused step too: the probe puts the values back and the exception goes through.
  EXPECT_THROW(record_written_fields(s, [] { throw std::runtime_error("refused"); }),
               std::runtime_error);
  same_values(s, before);
}

TEST(RecordedFieldNames, NamesTheMembers) {
  EXPECT_EQ(recorded_field_names(bit(RecordedField::W_damp) | bit(RecordedField::index_set)),
            "index_set, W_damp");
  EXPECT_EQ(recorded_field_names(0), "");
  EXPECT_EQ(recorded_field_names(bit(RecordedField::stored_energy_dissipation)),
            "stored_energy_dissipation");
}

}  // namespace
}  // namespace nsh
