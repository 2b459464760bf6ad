#pragma once
// `nsh simulate --format hdf5` (or `--out FILE.h5`): the trajectory as an HDF5 file of one
// dataset per column group, which h5py, HDF5.jl and MATLAB read directly. The layout is in
// docs/output-formats.md. Built where CMake finds the HDF5 C library (Debian libhdf5-dev);
// without it, making a writer is an InputError naming --format. Doubles only: --precision 50
// and rational are refused (their point is digits a double does not hold; they write CSV).

#include <nsh/first_order/scheme.hpp>
#include <nsh/io/trajectory_csv.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace nsh::cli {

/// The run an HDF5 file records, stored as attributes of its root group.
struct Hdf5RunInfo {
  std::string case_name;    ///< the case file's "name"
  std::string case_source;  ///< the file it was read from
  std::string scheme;       ///< the scheme spec as given on the command line
  std::string precision;    ///< "double"
  double t0{0};
  double h{0};
  double T{0};
  Index every{1};
  std::string columns;  ///< the --columns text
};

/// True if this nsh was built with HDF5.
bool hdf5_available();

/// The linear table (step, t, q, v, P, E, W_ext, W_damp, W_contact) written to `path`.
std::unique_ptr<TrajectoryRecorder<double>> make_hdf5_trajectory_writer(
    const std::string& path, Index dofs, Index contacts, TrajectoryRecorder<double>::Energy energy,
    TrajectoryColumns columns, TrajectorySampling sampling, const Hdf5RunInfo& info);

/// The first-order table (step, t, x, r; r NaN in row 0) written to `path`.
class FirstOrderHdf5Writer {
 public:
  virtual ~FirstOrderHdf5Writer() = default;
  virtual void initial(const FirstOrderState<double>& state) = 0;
  virtual void step(const FirstOrderState<double>& state,
                    const FirstOrderStepSummary<double>& summary) = 0;
  /// Writes what is buffered and closes the file (the destructor does it too, silently).
  virtual void close() = 0;
};
std::unique_ptr<FirstOrderHdf5Writer> make_first_order_hdf5_writer(
    const std::string& path, Index dimension, std::vector<std::vector<Index>> columns,
    TrajectorySampling sampling, const Hdf5RunInfo& info);

/// Writes what a linear HDF5 writer buffered and closes its file; InputError naming --out if
/// HDF5 reports a failure. Called once at the end (and before reporting a failed step).
void close_hdf5_trajectory_writer(TrajectoryRecorder<double>& writer);

}  // namespace nsh::cli
