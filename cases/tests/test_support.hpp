#pragma once
// Shared helpers of the cases tests: load a built-in case in a given precision.
#include <nsh/scalar.hpp>

#include <nsh/io/case_file.hpp>

#include <string>

namespace nsh::cases::test {

template <class Scalar>
LinearCase<Scalar> load(const std::string& name) {
  return load_linear_case<Scalar>(
      read_case_file(std::string(NSH_SOURCE_DIR) + "/cases/data/" + name + ".json"));
}

template <class Scalar>
Scalar relative_error(const Scalar& x, const Scalar& exact) {
  const Scalar d = abs_value<Scalar>(x - exact);
  const Scalar s = abs_value<Scalar>(exact);
  return s > Scalar(0) ? Scalar(d / s) : d;
}

inline double to_double(const Real50& x) {
  return x.convert_to<double>();
}
inline double to_double(double x) {
  return x;
}

}  // namespace nsh::cases::test
