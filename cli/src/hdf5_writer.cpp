// The HDF5 trajectory writers of hdf5_writer.hpp, on the HDF5 C API (1.10, Debian libhdf5-dev).
// Every dataset grows by whole chunks of rows buffered here, so a run of any length needs a
// fixed amount of memory (about 1 MB per column group) and one H5Dwrite per chunk.
#include "hdf5_writer.hpp"

#include <nsh/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <type_traits>

#ifdef NSH_HAVE_HDF5
#include <hdf5.h>
#endif

namespace nsh::cli {

#ifdef NSH_HAVE_HDF5
namespace {

/// The file's tables: the integer dataset "step" and double datasets of one row per written
/// step, each 1-D (width 0: one value per row) or 2-D (rows x width).
class Hdf5Table {
 public:
  struct Column {
    std::string name;
    Index width{0};  ///< 0: a 1-D dataset
    std::string description;
  };

  Hdf5Table(const std::string& path, const std::vector<Column>& columns) : path_(path) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported as InputError below
    // No modification times in object headers (datasets, groups, the root): the same run
    // writes the same bytes, as the CSV does.
    const hid_t file_properties = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_obj_track_times(file_properties, false);
    file_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, file_properties, H5P_DEFAULT);
    H5Pclose(file_properties);
    if (file_ < 0) throw InputError("out", "cannot create the HDF5 file '" + path + "'");
    Index widest = 1;
    for (const Column& c : columns) widest = std::max(widest, c.width);
    // About 1 MB per chunk of the widest dataset, at most 4096 rows.
    chunk_rows_ = std::clamp<Index>(Index(1 << 17) / widest, 1, 4096);
    step_ = create("step", 0, H5T_STD_I64LE, "the step k of the row's state, t = t0 + k h");
    step_buffer_.resize(static_cast<std::size_t>(chunk_rows_));
    for (const Column& c : columns) {
      Dataset d;
      d.width = c.width;
      d.id = create(c.name, c.width, H5T_IEEE_F64LE, c.description);
      d.buffer.resize(static_cast<std::size_t>(chunk_rows_ * std::max<Index>(c.width, 1)));
      datasets_.push_back(std::move(d));
    }
  }
  Hdf5Table(const Hdf5Table&) = delete;
  Hdf5Table& operator=(const Hdf5Table&) = delete;
  ~Hdf5Table() {
    try {
      close();
    } catch (...) {  // a destructor reports nothing; close() is called explicitly on success
    }
  }

  hid_t file() const { return file_; }

  /// The row's value slot of dataset `d` (width entries, or one).
  double* slot(std::size_t d) {
    Dataset& set = datasets_[d];
    return set.buffer.data() + pending_ * std::max<Index>(set.width, 1);
  }
  void end_row(Index step) {
    step_buffer_[static_cast<std::size_t>(pending_)] = static_cast<long long>(step);
    if (++pending_ == chunk_rows_) flush();
  }

  void close() {
    if (file_ < 0) return;
    flush();
    for (Dataset& d : datasets_) H5Dclose(d.id);
    H5Dclose(step_);
    const herr_t status = H5Fclose(file_);
    file_ = -1;
    if (status < 0) throw InputError("out", "closing the HDF5 file '" + path_ + "' failed");
  }

  void string_attribute(hid_t where, const std::string& name, const std::string& value) {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(where, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    const char* text = value.c_str();
    const herr_t status = attribute < 0 ? -1 : H5Awrite(attribute, type, &text);
    if (attribute >= 0) H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    check(status, "attribute " + name);
  }
  template <class T>
  void number_attribute(hid_t where, const std::string& name, T value) {
    const hid_t type = std::is_floating_point_v<T> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_LLONG;
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(where, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    using Stored = std::conditional_t<std::is_floating_point_v<T>, double, long long>;
    const Stored stored = static_cast<Stored>(value);
    const herr_t status = attribute < 0 ? -1 : H5Awrite(attribute, type, &stored);
    if (attribute >= 0) H5Aclose(attribute);
    H5Sclose(space);
    check(status, "attribute " + name);
  }
  /// The 1-D integer dataset `name` of group `where` ("/columns/q": the indices of q's columns).
  void index_dataset(hid_t where, const std::string& name, const std::vector<Index>& values) {
    const hsize_t size = values.size();
    const hid_t space = H5Screate_simple(1, &size, nullptr);
    const hid_t properties = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_obj_track_times(properties, false);
    const hid_t set =
        H5Dcreate2(where, name.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, properties, H5P_DEFAULT);
    H5Pclose(properties);
    std::vector<long long> data(values.begin(), values.end());
    herr_t status = set < 0 ? -1 : 0;
    if (set >= 0 && !data.empty())
      status = H5Dwrite(set, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
    if (set >= 0) H5Dclose(set);
    H5Sclose(space);
    check(status, "dataset columns/" + name);
  }

  void check(herr_t status, const std::string& what) const {
    if (status < 0)
      throw InputError("out", "writing " + what + " to the HDF5 file '" + path_ + "' failed");
  }

 private:
  struct Dataset {
    hid_t id{-1};
    Index width{0};
    std::vector<double> buffer;
  };

  hid_t create(const std::string& name, Index width, hid_t type, const std::string& description) {
    const int rank = width > 0 ? 2 : 1;
    const hsize_t dims[2] = {0, static_cast<hsize_t>(width)};
    const hsize_t maxdims[2] = {H5S_UNLIMITED, static_cast<hsize_t>(width)};
    const hsize_t chunk[2] = {static_cast<hsize_t>(chunk_rows_), static_cast<hsize_t>(width)};
    const hid_t space = H5Screate_simple(rank, dims, maxdims);
    const hid_t properties = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(properties, rank, chunk);
    H5Pset_obj_track_times(properties, false);
    const hid_t set =
        H5Dcreate2(file_, name.c_str(), type, space, H5P_DEFAULT, properties, H5P_DEFAULT);
    H5Pclose(properties);
    H5Sclose(space);
    check(set < 0 ? -1 : 0, "dataset " + name);
    string_attribute(set, "description", description);
    return set;
  }

  void write(hid_t set, Index width, hid_t memory_type, const void* data) {
    const int rank = width > 0 ? 2 : 1;
    const hsize_t size[2] = {static_cast<hsize_t>(rows_ + pending_), static_cast<hsize_t>(width)};
    const hsize_t start[2] = {static_cast<hsize_t>(rows_), 0};
    const hsize_t count[2] = {static_cast<hsize_t>(pending_), static_cast<hsize_t>(width)};
    herr_t status = H5Dset_extent(set, size);
    const hid_t file_space = H5Dget_space(set);
    if (status >= 0)
      status = H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr);
    const hid_t memory_space = H5Screate_simple(rank, count, nullptr);
    if (status >= 0)
      status = H5Dwrite(set, memory_type, memory_space, file_space, H5P_DEFAULT, data);
    H5Sclose(memory_space);
    H5Sclose(file_space);
    check(status, "rows");
  }

  void flush() {
    if (pending_ == 0) return;
    write(step_, 0, H5T_NATIVE_LLONG, step_buffer_.data());
    for (Dataset& d : datasets_) write(d.id, d.width, H5T_NATIVE_DOUBLE, d.buffer.data());
    rows_ += pending_;
    pending_ = 0;
  }

  std::string path_;
  hid_t file_{-1};
  hid_t step_{-1};
  Index chunk_rows_{1};
  Index rows_{0};     ///< rows in the file
  Index pending_{0};  ///< rows buffered
  std::vector<long long> step_buffer_;
  std::vector<Dataset> datasets_;
};

/// The root attributes and the /columns group every nsh trajectory file has.
void write_run_info(Hdf5Table& table, const Hdf5RunInfo& info, const std::string& family,
                    const std::vector<std::pair<std::string, const std::vector<Index>*>>& indexed) {
  const hid_t root = table.file();
  table.string_attribute(root, "format", "nsh-trajectory");
  table.number_attribute(root, "format_version", 1);
  table.string_attribute(root, "nsh_version", NSH_VERSION);
  table.string_attribute(root, "family", family);
  table.string_attribute(root, "case", info.case_name);
  table.string_attribute(root, "case_source", info.case_source);
  table.string_attribute(root, "scheme", info.scheme);
  table.string_attribute(root, "precision", info.precision);
  table.number_attribute(root, "t0", info.t0);
  table.number_attribute(root, "h", info.h);
  table.number_attribute(root, "T", info.T);
  table.number_attribute(root, "every", info.every);
  table.string_attribute(root, "columns", info.columns);
  const hid_t group_properties = H5Pcreate(H5P_GROUP_CREATE);
  H5Pset_obj_track_times(group_properties, false);
  const hid_t group = H5Gcreate2(root, "columns", H5P_DEFAULT, group_properties, H5P_DEFAULT);
  H5Pclose(group_properties);
  table.check(group < 0 ? -1 : 0, "group columns");
  for (const auto& [name, indices] : indexed) table.index_dataset(group, name, *indices);
  H5Gclose(group);
}

class Hdf5TrajectoryWriter final : public TrajectoryRecorder<double> {
 public:
  Hdf5TrajectoryWriter(const std::string& path, Index dofs, Index contacts, Energy energy,
                       TrajectoryColumns columns, TrajectorySampling sampling,
                       const Hdf5RunInfo& info)
      : TrajectoryRecorder<double>(dofs, contacts, std::move(energy), std::move(columns), sampling),
        table_(path, table_columns(this->columns())) {
    const TrajectoryColumns& c = this->columns();
    if (c.tangents > 0)
      write_run_info(table_, info, "linear",
                     {{"q", &c.q}, {"v", &c.v}, {"P", &c.P}, {"PT", &c.PT}, {"UT", &c.UT}});
    else
      write_run_info(table_, info, "linear", {{"q", &c.q}, {"v", &c.v}, {"P", &c.P}});
  }
  void close() { table_.close(); }

 private:
  static std::vector<Hdf5Table::Column> table_columns(const TrajectoryColumns& c) {
    const std::string summed = " summed over the steps since the previous row (zero in row 0)";
    std::vector<Hdf5Table::Column> out{{"t", 0, "time t_k"}};
    if (!c.q.empty()) out.push_back({"q", Index(c.q.size()), "positions q_k; columns: /columns/q"});
    if (!c.v.empty())
      out.push_back({"v", Index(c.v.size()), "velocities v_k; columns: /columns/v"});
    if (!c.P.empty())
      out.push_back(
          {"P", Index(c.P.size()), "contact impulses" + summed + "; columns: /columns/P"});
    if (!c.PT.empty())
      out.push_back({"PT", Index(c.PT.size()),
                     "tangential impulses (contact-major, column j along G_T's column j)" + summed +
                         "; columns: /columns/PT"});
    if (!c.UT.empty())
      out.push_back({"UT", Index(c.UT.size()),
                     "tangential velocities G_T^T v_k of the row's state (contact-major); "
                     "columns: /columns/UT"});
    if (c.E) out.push_back({"E", 0, "energy 1/2 v^T M v + 1/2 q^T K q of the row's state"});
    if (c.W) {
      out.push_back({"W_ext", 0, "external work" + summed});
      out.push_back({"W_damp", 0, "damping work" + summed});
      out.push_back({"W_contact", 0, "contact work" + summed});
    }
    return out;
  }

  void write_row(const TrajectoryRow<double>& row) override {
    const TrajectoryColumns& c = columns();
    const State<double>& state = *row.state;
    std::size_t d = 0;
    *table_.slot(d++) = state.t;
    auto gather = [&](const Vector<double>& from, const std::vector<Index>& indices) {
      if (indices.empty()) return;
      double* to = table_.slot(d++);
      for (Index i : indices) *to++ = from(i);
    };
    gather(state.q, c.q);
    gather(state.v, c.v);
    gather(*row.impulse, c.P);
    if (!c.PT.empty()) gather(*row.tangential_impulse, c.PT);
    if (!c.UT.empty()) gather(*row.tangential_velocity, c.UT);
    if (c.E) *table_.slot(d++) = row.E;
    if (c.W) {
      *table_.slot(d++) = row.W_ext;
      *table_.slot(d++) = row.W_damp;
      *table_.slot(d++) = row.W_contact;
    }
    table_.end_row(row.step);
  }

  Hdf5Table table_;
};

class FirstOrderHdf5WriterImpl final : public FirstOrderHdf5Writer {
 public:
  FirstOrderHdf5WriterImpl(const std::string& path, Index dimension,
                           std::vector<std::vector<Index>> columns, TrajectorySampling sampling,
                           const Hdf5RunInfo& info)
      : dimension_(dimension),
        columns_(std::move(columns)),
        sampling_(sampling),
        table_(path, table_columns(columns_)) {
    write_run_info(table_, info, "first-order", {{"x", &columns_[0]}, {"r", &columns_[1]}});
  }
  void initial(const FirstOrderState<double>& state) override { row(0, state, nullptr); }
  void step(const FirstOrderState<double>& state,
            const FirstOrderStepSummary<double>& summary) override {
    if (!sampling_.writes(summary.step)) return;
    row(summary.step, state, summary.reaction.size() == dimension_ ? &summary.reaction : nullptr);
  }
  void close() override { table_.close(); }

 private:
  static std::vector<Hdf5Table::Column> table_columns(const std::vector<std::vector<Index>>& c) {
    std::vector<Hdf5Table::Column> out{{"t", 0, "time t_k"}};
    if (!c[0].empty()) out.push_back({"x", Index(c[0].size()), "state x_k; columns: /columns/x"});
    if (!c[1].empty())
      out.push_back({"r", Index(c[1].size()),
                     "reaction (x_k - x_{k-1})/h - f(t_{k-1}, x_{k-1}) of the row's own step "
                     "(NaN in row 0); columns: /columns/r"});
    return out;
  }
  void row(Index step, const FirstOrderState<double>& state, const Vector<double>* reaction) {
    std::size_t d = 0;
    *table_.slot(d++) = state.t;
    if (!columns_[0].empty()) {
      double* to = table_.slot(d++);
      for (Index i : columns_[0]) *to++ = state.x(i);
    }
    if (!columns_[1].empty()) {
      double* to = table_.slot(d++);
      for (Index i : columns_[1])
        *to++ = reaction ? (*reaction)(i) : std::numeric_limits<double>::quiet_NaN();
    }
    table_.end_row(step);
  }

  Index dimension_;
  std::vector<std::vector<Index>> columns_;
  TrajectorySampling sampling_;
  Hdf5Table table_;
};

}  // namespace

bool hdf5_available() {
  return true;
}

std::unique_ptr<TrajectoryRecorder<double>> make_hdf5_trajectory_writer(
    const std::string& path, Index dofs, Index contacts, TrajectoryRecorder<double>::Energy energy,
    TrajectoryColumns columns, TrajectorySampling sampling, const Hdf5RunInfo& info) {
  return std::make_unique<Hdf5TrajectoryWriter>(path, dofs, contacts, std::move(energy),
                                                std::move(columns), sampling, info);
}

std::unique_ptr<FirstOrderHdf5Writer> make_first_order_hdf5_writer(
    const std::string& path, Index dimension, std::vector<std::vector<Index>> columns,
    TrajectorySampling sampling, const Hdf5RunInfo& info) {
  return std::make_unique<FirstOrderHdf5WriterImpl>(path, dimension, std::move(columns), sampling,
                                                    info);
}

void close_hdf5_trajectory_writer(TrajectoryRecorder<double>& writer) {
  if (auto* hdf5 = dynamic_cast<Hdf5TrajectoryWriter*>(&writer)) hdf5->close();
}

#else  // built without HDF5

namespace {
[[noreturn]] void no_hdf5() {
  throw InputError("--format",
                   "this nsh was built without HDF5 (install libhdf5-dev, reconfigure and "
                   "rebuild), so it writes CSV only");
}
}  // namespace

bool hdf5_available() {
  return false;
}

std::unique_ptr<TrajectoryRecorder<double>> make_hdf5_trajectory_writer(
    const std::string&, Index, Index, TrajectoryRecorder<double>::Energy, TrajectoryColumns,
    TrajectorySampling, const Hdf5RunInfo&) {
  no_hdf5();
}

std::unique_ptr<FirstOrderHdf5Writer> make_first_order_hdf5_writer(const std::string&, Index,
                                                                   std::vector<std::vector<Index>>,
                                                                   TrajectorySampling,
                                                                   const Hdf5RunInfo&) {
  no_hdf5();
}

void close_hdf5_trajectory_writer(TrajectoryRecorder<double>&) {}

#endif

}  // namespace nsh::cli
