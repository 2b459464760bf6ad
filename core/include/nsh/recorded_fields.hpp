#pragma once
// Which StepSummary fields a scheme's do_step wrote (architecture review P1, last bullet). The
// kit derives the fields that are functions of the model and the two states; the rest only
// the scheme can record, and a property reading one the scheme never wrote would judge a stale
// value or a default zero: a vacuous pass. In a debug build the kit records the written fields
// of every step in StepSummary::recorded (Scheme::step, through record_written_fields), and the
// property runner fails a property that read a field outside that mask. In a release build
// `recorded` stays all_recorded_fields and nothing is probed: no cost on the double path.
//
// How a write is seen without hooks in the schemes: before do_step every recorded scalar is
// set to a sentinel value and every non-empty recorded vector's first entry too; after it, a
// field still holding its sentinel (and of unchanged size) was not written and gets its value
// back, so the probe changes no number. An empty vector that stays empty counts as written:
// there is nothing in it to read, and the predicates check the sizes they need.

#include <nsh/step_summary.hpp>

#include <cstdint>
#include <iterator>
#include <string>
#include <utility>

namespace nsh {

enum class RecordedField : std::uint32_t {
  index_set = 1u << 0,
  impulse = 1u << 1,
  velocity_newton = 1u << 2,
  external_impulse = 1u << 3,
  forecast_impulse = 1u << 4,
  tangential_impulse = 1u << 5,
  forecast_tangential_impulse = 1u << 6,
  lcp = 1u << 7,
  W_ext = 1u << 8,
  W_damp = 1u << 9,
  W_contact = 1u << 10,
  numerical_dissipation = 1u << 11,
  E_alg_before = 1u << 12,
  E_alg_after = 1u << 13,
  algorithmic_dissipation = 1u << 14,
  acceleration_like_before = 1u << 15,
  acceleration_like_after = 1u << 16,
  stored_energy_before = 1u << 17,
  stored_energy_after = 1u << 18,
  W_dashpot = 1u << 19,
  stored_energy_dissipation = 1u << 20,
};

inline constexpr std::uint32_t bit(RecordedField f) {
  return static_cast<std::uint32_t>(f);
}

/// The StepSummary member names of the fields in `mask`, comma-separated, in bit order.
inline std::string recorded_field_names(std::uint32_t mask) {
  static constexpr const char* names[] = {"index_set",
                                          "impulse",
                                          "velocity_newton",
                                          "external_impulse",
                                          "forecast_impulse",
                                          "tangential_impulse",
                                          "forecast_tangential_impulse",
                                          "lcp",
                                          "W_ext",
                                          "W_damp",
                                          "W_contact",
                                          "numerical_dissipation",
                                          "E_alg_before",
                                          "E_alg_after",
                                          "algorithmic_dissipation",
                                          "acceleration_like_before",
                                          "acceleration_like_after",
                                          "stored_energy_before",
                                          "stored_energy_after",
                                          "W_dashpot",
                                          "stored_energy_dissipation"};
  std::string out;
  for (std::uint32_t i = 0; i < std::size(names); ++i)
    if (mask & (1u << i)) out += (out.empty() ? "" : ", ") + std::string(names[i]);
  return out;
}

/// Every recorded field: what StepSummary::recorded holds when nothing was probed.
inline constexpr std::uint32_t all_recorded_fields = ~std::uint32_t{0};

namespace detail {

template <class Scalar>
Scalar recorded_sentinel() {
  // A value no ledger computes by accident, exact in every precision.
  return Scalar(-987654321) / Scalar(123456789);
}

/// Plants the sentinel in one field before do_step and tells afterwards whether it was
/// overwritten, restoring the value if not.
template <class Scalar>
class ScalarProbe {
 public:
  explicit ScalarProbe(Scalar& field) : field_(field), saved_(field) {
    field_ = recorded_sentinel<Scalar>();
  }
  bool written() {
    if (field_ != recorded_sentinel<Scalar>()) return true;
    field_ = saved_;
    return false;
  }

 private:
  Scalar& field_;
  Scalar saved_;
};

template <class Vec, class Entry>
class VectorProbe {
 public:
  VectorProbe(Vec& field, const Entry& sentinel) : field_(field), size_(field.size()) {
    if (size_ == 0) return;
    saved_ = field_[0];
    field_[0] = sentinel;
    sentinel_ = sentinel;
  }
  bool written() {
    if (static_cast<decltype(size_)>(field_.size()) != size_ || size_ == 0) return true;
    if (!(field_[0] == sentinel_)) return true;
    field_[0] = saved_;
    return false;
  }

 private:
  Vec& field_;
  decltype(std::declval<Vec&>().size()) size_;
  Entry saved_{};
  Entry sentinel_{};
};

}  // namespace detail

/// Runs `do_step()` (which writes into `summary`) and returns the mask of the recorded fields
/// it wrote; the fields it did not write keep their values. Always compiled (and tested); the
/// kit calls it in debug builds only. Allocation-free for double.
template <class Scalar, class DoStep>
std::uint32_t record_written_fields(StepSummary<Scalar>& s, DoStep&& do_step) {
  using F = RecordedField;
  const Scalar entry = detail::recorded_sentinel<Scalar>();
  detail::VectorProbe<std::vector<Index>, Index> index_set(s.index_set, Index(-424242));
  detail::VectorProbe<Vector<Scalar>, Scalar> impulse(s.impulse, entry),
      velocity_newton(s.velocity_newton, entry), external_impulse(s.external_impulse, entry),
      forecast_impulse(s.forecast_impulse, entry), tangential_impulse(s.tangential_impulse, entry),
      forecast_tangential_impulse(s.forecast_tangential_impulse, entry),
      acceleration_like_before(s.acceleration_like_before, entry),
      acceleration_like_after(s.acceleration_like_after, entry);
  const LcpStatus lcp_status = s.lcp.status;
  const Index lcp_iterations = s.lcp.iterations;
  constexpr auto status_sentinel = static_cast<LcpStatus>(0x5e17);
  s.lcp.status = status_sentinel;
  s.lcp.iterations = Index(-424242);
  detail::ScalarProbe<Scalar> W_ext(s.W_ext), W_damp(s.W_damp), W_contact(s.W_contact),
      numerical_dissipation(s.numerical_dissipation), E_alg_before(s.E_alg_before),
      E_alg_after(s.E_alg_after), algorithmic_dissipation(s.algorithmic_dissipation),
      stored_energy_before(s.stored_energy_before), stored_energy_after(s.stored_energy_after),
      W_dashpot(s.W_dashpot), stored_energy_dissipation(s.stored_energy_dissipation);
  bool lcp_written = true;
  // Every probe is asked once, after do_step: that also puts back what it did not write.
  const auto collect = [&] {
    lcp_written = s.lcp.status != status_sentinel || s.lcp.iterations != Index(-424242);
    if (s.lcp.status == status_sentinel) s.lcp.status = lcp_status;
    if (s.lcp.iterations == Index(-424242)) s.lcp.iterations = lcp_iterations;
    std::uint32_t mask = 0;
    const auto mark = [&mask](bool written, F field) {
      if (written) mask |= bit(field);
    };
    mark(index_set.written(), F::index_set);
    mark(impulse.written(), F::impulse);
    mark(velocity_newton.written(), F::velocity_newton);
    mark(external_impulse.written(), F::external_impulse);
    mark(forecast_impulse.written(), F::forecast_impulse);
    mark(tangential_impulse.written(), F::tangential_impulse);
    mark(forecast_tangential_impulse.written(), F::forecast_tangential_impulse);
    mark(lcp_written, F::lcp);
    mark(W_ext.written(), F::W_ext);
    mark(W_damp.written(), F::W_damp);
    mark(W_contact.written(), F::W_contact);
    mark(numerical_dissipation.written(), F::numerical_dissipation);
    mark(E_alg_before.written(), F::E_alg_before);
    mark(E_alg_after.written(), F::E_alg_after);
    mark(algorithmic_dissipation.written(), F::algorithmic_dissipation);
    mark(acceleration_like_before.written(), F::acceleration_like_before);
    mark(acceleration_like_after.written(), F::acceleration_like_after);
    mark(stored_energy_before.written(), F::stored_energy_before);
    mark(stored_energy_after.written(), F::stored_energy_after);
    mark(W_dashpot.written(), F::W_dashpot);
    mark(stored_energy_dissipation.written(), F::stored_energy_dissipation);
    return mask;
  };
  try {
    do_step();
  } catch (...) {
    (void)collect();  // a refused step leaves the summary as it found it, but for its writes
    throw;
  }
  return collect();
}

}  // namespace nsh
