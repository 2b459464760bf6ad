// The forecasting trapezoidal rule (nsh/schemes/forecasting_trapezoidal.hpp): half-explicit-tdg's
// stages on acceleration level. The step itself is HalfExplicitTdg's (instantiated in
// half_explicit_tdg*.cpp); this file names the scheme and registers it.
#include <nsh/schemes/forecasting_trapezoidal.hpp>

namespace nsh {

template <class Scalar>
ForecastingTrapezoidal<Scalar>::ForecastingTrapezoidal(const SchemeSpec& spec)
    : HalfExplicitTdg<Scalar>(spec, "forecasting-trapezoidal", /*acceleration_level=*/true) {}

template <class Scalar>
SchemeInfo ForecastingTrapezoidal<Scalar>::info() const {
  SchemeInfo info = HalfExplicitTdg<Scalar>::info();
  info.family = "forecasting-trapezoidal";
  info.spec = canonical_spec("forecasting-trapezoidal", this->options());
  return info;
}

template class ForecastingTrapezoidal<double>;
template class ForecastingTrapezoidal<Real50>;
template class ForecastingTrapezoidal<Rational>;

void register_forecasting_trapezoidal(Registry& registry) {
  SchemeEntry entry;
  entry.name = "forecasting-trapezoidal";
  entry.summary =
      "forecasting trapezoidal rule: half-explicit-tdg's stages with the non-impulsive contact "
      "constraints on acceleration level, impacts by Newton's law (a reconstruction, "
      "docs/half-explicit-tdg.md)";
  entry.options = declared_options<HalfExplicitTdgOptions>();
  set_factories<ForecastingTrapezoidal>(entry);
  entry.representatives = {"forecasting-trapezoidal"};
  registry.add(std::move(entry));
}

}  // namespace nsh
