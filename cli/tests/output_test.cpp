// The trajectory output of `nsh simulate` (issue 17 item 2): the shortest round-trip text of a
// double, --every (rows thinned, work terms and impulses summed over the skipped steps so the
// ledger still balances), --columns, the HDF5 file (read back with the HDF5 C API and, where
// /usr/bin/python3 has h5py, from Python), and the streamed first-order table.
#include <nsh/data_format.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/trajectory_csv.hpp>
#include <nsh/number.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cli_support.hpp"

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#if NSH_WITH_HDF5_OUTPUT
#include <hdf5.h>
#endif

namespace {

namespace fs = std::filesystem;

using nsh_cli_test::has, nsh_cli_test::lines, nsh_cli_test::run_nsh, nsh_cli_test::Result,
    nsh_cli_test::scratch, nsh_cli_test::slurp, nsh_cli_test::split;

std::string text_of(double x) {
  std::string out;
  nsh::append_scalar(out, x);
  return out;
}

/// The double the text reads back to: by strtod (correctly rounding, as Python's float, numpy
/// and Julia's parse are), and by nsh's own number reader (`nsh converge --reference FILE`
/// reads simulate's CSV with it) for normal numbers. That reader goes through an exact
/// rational, so it reads "-0" as +0, and cpp_rational's conversion to double rounds some
/// subnormals to a neighbour (5e-324 region; seen in this test, left to the reader's owner).
void expect_round_trip(double x) {
  const std::string text = text_of(x);
  const double by_strtod = std::strtod(text.c_str(), nullptr);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(by_strtod), std::bit_cast<std::uint64_t>(x))
      << text << " from " << nsh::format_scalar(x);
  if (std::isnormal(x)) {
    const double by_reader = nsh::parse_number<double>(text, "x");
    EXPECT_EQ(std::bit_cast<std::uint64_t>(by_reader), std::bit_cast<std::uint64_t>(x))
        << text << " from " << nsh::format_scalar(x);
  }
  // fmt's default "{}" text, which append_scalar writes by hand around fmt's digits.
  EXPECT_EQ(text, fmt::format("{}", x));
  // The longest shortest form is 24 characters (-2.2250738585072014e-308). It is not always
  // shorter than %.17g: fmt writes 1e16 <= |x| < 1e17 in exponent form (5.6400971035558536e+16).
  EXPECT_LE(text.size(), 24u) << text;
}

TEST(Output, ShortestDoubleTextReadsBackBitIdentical) {
  for (double x : {0.0,
                   -0.0,
                   1.0,
                   -1.0,
                   0.1,
                   1.0 / 3,
                   1e308,
                   -1e308,
                   DBL_MAX,
                   -DBL_MAX,
                   DBL_MIN,
                   std::numeric_limits<double>::denorm_min(),
                   -std::numeric_limits<double>::denorm_min(),
                   DBL_MIN / 3,
                   5e-324,
                   2.2250738585072009e-308,
                   9007199254740993.0,
                   1e16,
                   1e21,
                   123456789012345680.0,
                   -0.0981,
                   0.30000000000000004})
    expect_round_trip(x);
  for (double x :
       {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN()})
    EXPECT_EQ(text_of(x), fmt::format("{}", x));
  EXPECT_EQ(text_of(0.1), "0.1");
  EXPECT_EQ(text_of(-0.0), "-0");
  EXPECT_EQ(text_of(1e308), "1e+308");
  EXPECT_EQ(text_of(5e-324), "5e-324");
  EXPECT_EQ(text_of(-0.098100000000000007), "-0.0981");
  std::mt19937_64 random(20261202);
  for (int i = 0; i < 30000; ++i) {
    // Every finite bit pattern is equally likely: all exponents, subnormals included.
    const double x = std::bit_cast<double>(random());
    if (std::isfinite(x)) expect_round_trip(x);
    // Subnormals and values of a few digits, which take the other branches of the printer.
    expect_round_trip(std::bit_cast<double>(random() & 0x800fffffffffffffULL));
    expect_round_trip(static_cast<double>(static_cast<std::int64_t>(random() % 2000001) - 1000000) /
                      1000.0);
  }
  // Appending reuses the buffer: one string holds many numbers, separated by the caller.
  std::string line;
  nsh::append_scalar(line, 0.5);
  line += ',';
  nsh::append_scalar(line, -2.0);
  EXPECT_EQ(line, "0.5,-2");
}

TEST(Output, Real50AndRationalKeepTheirDigits) {
  std::string text;
  nsh::append_scalar(text, nsh::Real50(1) / 3);
  EXPECT_EQ(text, nsh::format_scalar(nsh::Real50(1) / 3));
  EXPECT_EQ(text.size(), 52u);  // "0." and 50 digits
  text.clear();
  nsh::append_scalar(text, nsh::Rational(18) / 5);
  EXPECT_EQ(text, "18/5");
}

std::vector<std::vector<std::string>> table(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& line : lines(csv)) rows.push_back(split(line));
  return rows;
}

// --every K writes rows 0, K, 2K, ... and the last; q, v, E are the full run's cells (the same
// text), P and the W's the sums over the steps since the previous written row, in step order,
// so that E_j - E_i = the summed W's minus the numerical dissipation, as for one step.
TEST(Output, EveryKeepsTheLedgerBalanced) {
  const std::string run = "simulate two-contact-forced --scheme moreau-jean --h 1/100 --T 3";
  const Result full = run_nsh(run);
  ASSERT_EQ(full.status, 0) << full.err;
  const Result thin = run_nsh(run + " --every 7");
  ASSERT_EQ(thin.status, 0) << thin.err;
  const auto all = table(full.out), some = table(thin.out);
  ASSERT_EQ(all.size(), 302u);
  ASSERT_EQ(some.size(), 1u + 1u + 300u / 7u + 1u);  // header, row 0, 7..294, 300
  EXPECT_EQ(some[0], all[0]);
  EXPECT_EQ(some[1], all[1]);
  EXPECT_EQ(some.back()[0], "300");
  const auto& header = all[0];
  std::size_t previous = 0;
  for (std::size_t r = 2; r < some.size(); ++r) {
    const std::size_t step = std::stoul(some[r][0]);
    EXPECT_TRUE(step % 7 == 0 || step == 300) << step;
    const auto& row = all[step + 1];
    ASSERT_EQ(some[r].size(), row.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
      const std::string& name = header[c];
      if (name[0] != 'P' && name.rfind("W_", 0) != 0) {
        EXPECT_EQ(some[r][c], row[c]) << name << " at step " << step;
        continue;
      }
      double sum = std::stod(all[previous + 2][c]);
      for (std::size_t k = previous + 2; k <= step; ++k) sum += std::stod(all[k + 1][c]);
      EXPECT_EQ(std::stod(some[r][c]), sum) << name << " at step " << step;
    }
    previous = step;
  }
  // --every 1 is the full table; an --every beyond the run writes row 0 and the last.
  EXPECT_EQ(run_nsh(run + " --every 1").out, full.out);
  const auto ends = table(run_nsh(run + " --every 1000000000000").out);
  ASSERT_EQ(ends.size(), 3u);
  EXPECT_EQ(ends[2][0], "300");
}

// Issue 21.1: a row that would hold inf is refused (StepError, exit 1) even when every step it
// sums was finite: two impulses of 1e308 written as one --every 2 row.
TEST(Output, ARowThatWouldHoldANonFiniteNumberIsAStepError) {
  std::ostringstream out;
  nsh::TrajectoryCsvWriter<double> writer(
      out, 1, 1, [](const nsh::Vector<double>&, const nsh::Vector<double>&) { return 0.0; },
      nsh::TrajectoryColumns::all(1, 1), nsh::TrajectorySampling{2, 4});
  nsh::State<double> state;
  state.q = nsh::Vector<double>::Zero(1);
  state.v = nsh::Vector<double>::Zero(1);
  writer.initial(state);
  nsh::StepSummary<double> summary;
  summary.impulse = nsh::Vector<double>::Constant(1, 1e308);
  summary.step = 1;
  writer.step(state, summary);  // summed, not written
  summary.step = 2;
  try {
    writer.step(state, summary);
    FAIL() << "the row of step 2 was written:\n" << out.str();
  } catch (const nsh::StepError& e) {
    EXPECT_TRUE(has(e.what(), "step 2")) << e.what();
    EXPECT_TRUE(has(e.what(), "P[0] = inf")) << e.what();
  }
  EXPECT_FALSE(has(out.str(), "inf")) << out.str();
}

TEST(Output, ColumnsChooseGroupsAndRanges) {
  const std::string run = "simulate two-body --scheme moreau-jean --h 0.25 --T 1/2";
  const Result full = run_nsh(run);
  ASSERT_EQ(full.status, 0) << full.err;
  const auto all = table(full.out);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"q", "step,t,q0,q1"},
      {"v1,E", "step,t,v1,E"},
      {"E,q0:1", "step,t,q0,q1,E"},  // the table's order, whatever the list's
      {"W,P", "step,t,P0,W_ext,W_damp,W_contact"},
      {"none", "step,t"},
      {"all", "step,t,q0,q1,v0,v1,P0,E,W_ext,W_damp,W_contact"},
      {" q1 , q1,q0:0 ", "step,t,q0,q1"}};
  for (const auto& [columns, header] : cases) {
    const Result r = run_nsh(run + " --columns '" + columns + "'");
    ASSERT_EQ(r.status, 0) << columns << ": " << r.err;
    const auto rows = table(r.out);
    ASSERT_EQ(rows.size(), all.size()) << columns;
    EXPECT_EQ(lines(r.out)[0], header) << columns;
    // Every cell is the full table's cell of the same name.
    for (std::size_t i = 1; i < rows.size(); ++i)
      for (std::size_t c = 0; c < rows[0].size(); ++c)
        for (std::size_t f = 0; f < all[0].size(); ++f)
          if (all[0][f] == rows[0][c]) {
            EXPECT_EQ(rows[i][c], all[i][f]) << columns;
          }
  }
}

TEST(Output, BadEveryColumnsAndFormatNameTheOption) {
  const std::string run = "simulate bouncing-ball --scheme moreau-jean --T 0.1";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {" --every 0", "--every"},
      {" --every -3", "--every"},
      {" --every 1.5", "--every"},
      {" --every ten", "--every"},
      {" --every ''", "--every"},
      {" --columns q1", "'q1' is out of range: q has the columns q0..q0"},
      {" --columns z", "unknown column 'z'"},
      {" --columns q,,v", "empty item"},
      {" --columns q2:1", "--columns"},
      {" --columns q0:x", "--columns"},
      {" --columns E0", "E takes no index"},
      {" --columns ''", "--columns"},
      {" --format parquet", "--format"},
      {" --format hdf5", "--out"},
      {" --format hdf5 --out x.h5 --precision 50", "--format"},
      {" --out x.h5 --precision rational", "--format"}};
  for (const auto& [args, expected] : bad) {
    const Result r = run_nsh(run + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_TRUE(has(r.err, expected)) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  // A contact-free case has no P columns to choose.
  const Result no_contact = run_nsh("simulate free-oscillator --scheme moreau-jean --columns P0");
  EXPECT_EQ(no_contact.status, 2);
  EXPECT_TRUE(has(no_contact.err, "no P columns")) << no_contact.err;
}

// The first-order path streams too, with --every (r is the written step's own reaction) and
// --columns on the groups x and r.
TEST(Output, FirstOrderTableStreamsWithEveryAndColumns) {
  const std::string run =
      "simulate sweeping-interval --scheme catching-up --h 3/10 --T 3/2 --precision rational";
  const Result full = run_nsh(run);
  ASSERT_EQ(full.status, 0) << full.err;
  const auto all = lines(full.out);
  ASSERT_EQ(all.size(), 7u);
  EXPECT_EQ(all[0], "step,t,x0,r0");
  EXPECT_EQ(all[1], "0,0,1,");
  const Result thin = run_nsh(run + " --every 2");
  ASSERT_EQ(thin.status, 0) << thin.err;
  EXPECT_EQ(lines(thin.out), (std::vector<std::string>{all[0], all[1], all[3], all[5], all[6]}));
  const Result x_only = run_nsh(run + " --columns x --every 4");
  ASSERT_EQ(x_only.status, 0) << x_only.err;
  EXPECT_EQ(lines(x_only.out),
            (std::vector<std::string>{"step,t,x0", "0,0,1", "4,6/5,0", "5,3/2,0"}));
  const Result bad = run_nsh(run + " --columns q");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(has(bad.err, "--columns")) << bad.err;
}

// Friction (issue 13 item 1): a frictionless case's table is byte for byte the table of the
// build before friction existed (the stored copies in cli/tests/data/frictionless were written
// by nsh at commit 11a04f6 with the same commands), and a frictional case adds the tangential
// impulse and velocity columns PT, UT after P.
TEST(Output, FrictionlessTablesAreTheStoredOnes) {
  const std::string dir = std::string(NSH_SOURCE_DIR) + "/cli/tests/data/frictionless/";
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"simulate two-body --scheme moreau-jean --precision rational --h 1/10",
       "two-body.moreau-jean.rational.csv"},
      {"simulate bouncing-ball --scheme moreau-jean:theta=1/2 --h 1/100 --every 7",
       "bouncing-ball.moreau-jean.every7.csv"},
      {"simulate two-contact-forced --scheme gen-alpha --h 1/50 --T 1 --columns q,P,W",
       "two-contact-forced.gen-alpha.columns.csv"},
      {"simulate newton-cradle-3 --scheme event-driven --precision 50 --T 1/2 --h 1/20",
       "newton-cradle-3.event-driven.50.csv"}};
  for (const auto& [run, file] : runs) {
    const Result r = run_nsh(run);
    ASSERT_EQ(r.status, 0) << run << ": " << r.err;
    const std::string stored = slurp(dir + file);
    ASSERT_FALSE(stored.empty()) << file;
    EXPECT_EQ(r.out, stored) << run;
  }
}

TEST(Output, FrictionalCasesHaveTangentialColumns) {
  const Result r = run_nsh(
      "simulate sliding-block --scheme moreau-jean --precision rational --h 1/100 --T 1/20");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 7u) << r.out;
  EXPECT_EQ(rows[0], "step,t,q0,q1,v0,v1,P0,PT0,UT0,E,W_ext,W_damp,W_contact");
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto cells = split(rows[k]);
    ASSERT_EQ(cells.size(), 13u) << rows[k];
    EXPECT_EQ(cells[8], cells[4]) << rows[k];  // U_T = G_T^T v = x' for G_T = (1, 0)
  }
  EXPECT_EQ(split(rows[1])[7], "0");  // no impulse in row 0
  EXPECT_EQ(split(rows[1])[8], "2");  // the initial sliding speed
  // The groups select like the others; PT, UT exist only where there is friction.
  const Result some = run_nsh(
      "simulate rolling-sphere --scheme moreau-jean --h 1/100 --T 1/50 "
      "--columns UT,PT0,q2");
  ASSERT_EQ(some.status, 0) << some.err;
  EXPECT_EQ(lines(some.out)[0], "step,t,q2,PT0,UT0");
  const Result out_of_range = run_nsh("simulate rolling-sphere --scheme moreau-jean --columns PT1");
  EXPECT_EQ(out_of_range.status, 2);
  EXPECT_TRUE(has(out_of_range.err, "--columns")) << out_of_range.err;
  EXPECT_TRUE(has(out_of_range.err, "PT0..PT0")) << out_of_range.err;
  const Result frictionless =
      run_nsh("simulate two-body --scheme moreau-jean --h 1/10 --columns PT");
  EXPECT_EQ(frictionless.status, 2);
  EXPECT_TRUE(has(frictionless.err, "accepted: all, none, q, v, P, E, W, qI")) << frictionless.err;
}

#if NSH_WITH_HDF5_OUTPUT

/// A dataset of the file as doubles (rows x width, row-major) and its dimensions.
std::vector<double> read_doubles(hid_t file, const char* name, std::vector<hsize_t>& dims) {
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  EXPECT_GE(set, 0) << name;
  if (set < 0) return {};
  const hid_t space = H5Dget_space(set);
  dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  hsize_t size = 1;
  for (hsize_t d : dims) size *= d;
  std::vector<double> data(size);
  EXPECT_GE(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), 0);
  H5Sclose(space);
  H5Dclose(set);
  return data;
}

std::string read_string_attribute(hid_t file, const char* name) {
  const hid_t attribute = H5Aopen(file, name, H5P_DEFAULT);
  EXPECT_GE(attribute, 0) << name;
  if (attribute < 0) return "";
  const hid_t type = H5Aget_type(attribute);
  char* text = nullptr;
  H5Aread(attribute, type, &text);
  std::string out = text ? text : "";
  H5free_memory(text);
  H5Tclose(type);
  H5Aclose(attribute);
  return out;
}

// The 1000-element bar (1001 dofs): more rows (301) than one chunk holds (130 at this width),
// so the file is written in several chunks; every value is the CSV's double, bit for bit.
TEST(Output, Hdf5HoldsTheCsvValuesBitForBit) {
  const std::string run =
      "simulate impacting-bar-1000-sparse --scheme moreau-jean --h 1/1000 --T 0.3";
  const fs::path h5 = scratch() / "bar.h5";
  const Result csv = run_nsh(run);
  ASSERT_EQ(csv.status, 0) << csv.err;
  const Result binary = run_nsh(run + " --out '" + h5.string() + "'");
  ASSERT_EQ(binary.status, 0) << binary.err;
  EXPECT_TRUE(binary.out.empty());
  const auto rows = table(csv.out);
  ASSERT_EQ(rows.size(), 302u);
  const std::size_t n = 1001;

  const hid_t file = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(read_string_attribute(file, "format"), "nsh-trajectory");
  EXPECT_EQ(read_string_attribute(file, "scheme"), "moreau-jean");
  EXPECT_EQ(read_string_attribute(file, "precision"), "double");
  EXPECT_EQ(read_string_attribute(file, "case"), "impacting-bar-1000-sparse");
  EXPECT_FALSE(read_string_attribute(file, "nsh_version").empty());
  std::vector<hsize_t> dims;
  const auto step = read_doubles(file, "step", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{301}));
  const auto t = read_doubles(file, "t", dims);
  const auto q = read_doubles(file, "q", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{301, n}));
  const auto v = read_doubles(file, "v", dims);
  const auto P = read_doubles(file, "P", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{301, 1}));
  const auto E = read_doubles(file, "E", dims);
  const auto W_contact = read_doubles(file, "W_contact", dims);
  const auto q_index = read_doubles(file, "columns/q", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{n}));
  EXPECT_EQ(q_index[1000], 1000.0);
  H5Fclose(file);

  auto same = [](double stored, const std::string& text) {
    return std::bit_cast<std::uint64_t>(stored) ==
           std::bit_cast<std::uint64_t>(std::strtod(text.c_str(), nullptr));
  };
  for (std::size_t k = 0; k < 301; ++k) {
    const auto& row = rows[k + 1];
    ASSERT_EQ(row.size(), 2 + 2 * n + 1 + 4);
    EXPECT_EQ(step[k], static_cast<double>(k));
    EXPECT_TRUE(same(t[k], row[1])) << k;
    for (std::size_t i = 0; i < n; i += 50) {
      EXPECT_TRUE(same(q[k * n + i], row[2 + i])) << k << " q" << i;
      EXPECT_TRUE(same(v[k * n + i], row[2 + n + i])) << k << " v" << i;
    }
    EXPECT_TRUE(same(P[k], row[2 + 2 * n])) << k;
    EXPECT_TRUE(same(E[k], row[3 + 2 * n])) << k;
    EXPECT_TRUE(same(W_contact[k], row[6 + 2 * n])) << k;
  }

  // Python reads it directly (h5py, the Debian python3-h5py that scripts/install-deps installs).
  if (std::system("/usr/bin/python3 -c 'import h5py, numpy' >/dev/null 2>&1") == 0) {
    const fs::path script = scratch() / "read.py";
    std::ofstream(script) << "import sys, h5py, numpy\n"
                             "f = h5py.File(sys.argv[1], 'r')\n"
                             "q = f['q'][:]\n"
                             "assert q.shape == (301, 1001), q.shape\n"
                             "assert f.attrs['scheme'] == 'moreau-jean', f.attrs['scheme']\n"
                             "assert list(f['columns/v'][:3]) == [0, 1, 2]\n"
                             "print(repr(float(f['E'][-1])))\n"
                             "print(repr(float(q[-1, 0])))\n";
    const fs::path printed = scratch() / "python.out";
    ASSERT_EQ(std::system(("/usr/bin/python3 '" + script.string() + "' '" + h5.string() + "' >'" +
                           printed.string() + "' 2>&1")
                              .c_str()),
              0)
        << slurp(printed);
    const auto cells = lines(slurp(printed));
    ASSERT_EQ(cells.size(), 2u) << slurp(printed);
    EXPECT_EQ(std::strtod(cells[0].c_str(), nullptr), E[300]);
    EXPECT_EQ(std::strtod(cells[1].c_str(), nullptr), q[300 * n]);
  } else {
    std::printf("h5py not importable by /usr/bin/python3: the Python read is skipped\n");
  }
}

TEST(Output, Hdf5WithEveryColumnsAndTheFirstOrderTable) {
  const fs::path h5 = scratch() / "thin.h5";
  const Result r = run_nsh(
      "simulate two-contact-forced --scheme moreau-jean --h 1/100 --T 3 "
      "--every 7 --columns q1,W --format hdf5 --out '" +
      h5.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto csv = table(run_nsh("simulate two-contact-forced --scheme moreau-jean --h 1/100 --T 3 "
                                 "--every 7 --columns q1,W")
                             .out);
  ASSERT_EQ(csv.size(), 45u);
  const hid_t file = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  std::vector<hsize_t> dims;
  const auto step = read_doubles(file, "step", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{44}));
  const auto q = read_doubles(file, "q", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{44, 1}));
  const auto W_ext = read_doubles(file, "W_ext", dims);
  EXPECT_EQ(read_doubles(file, "columns/q", dims), std::vector<double>{1.0});
  EXPECT_LT(H5Lexists(file, "v", H5P_DEFAULT), 1);  // unselected groups are absent
  EXPECT_LT(H5Lexists(file, "E", H5P_DEFAULT), 1);
  H5Fclose(file);
  for (std::size_t k = 0; k < 44; ++k) {
    EXPECT_EQ(step[k], std::stod(csv[k + 1][0]));
    EXPECT_EQ(q[k], std::strtod(csv[k + 1][2].c_str(), nullptr));
    EXPECT_EQ(W_ext[k], std::strtod(csv[k + 1][3].c_str(), nullptr));
  }

  // The same run writes the same bytes (no modification times in the object headers).
  const fs::path again = scratch() / "thin-again.h5";
  ASSERT_EQ(run_nsh("simulate two-contact-forced --scheme moreau-jean --h 1/100 --T 3 --every 7 "
                    "--columns q1,W --format hdf5 --out '" +
                    again.string() + "'")
                .status,
            0);
  EXPECT_TRUE(slurp(again) == slurp(h5)) << "two runs wrote different HDF5 bytes";

  const fs::path first = scratch() / "sweep.h5";
  const Result sweep = run_nsh(
      "simulate sweeping-interval --scheme catching-up --h 3/10 --T 3/2 "
      "--out '" +
      first.string() + "'");
  ASSERT_EQ(sweep.status, 0) << sweep.err;
  const hid_t sweep_file = H5Fopen(first.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(sweep_file, 0);
  EXPECT_EQ(read_string_attribute(sweep_file, "family"), "first-order");
  const auto x = read_doubles(sweep_file, "x", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{6, 1}));
  const auto reaction = read_doubles(sweep_file, "r", dims);
  EXPECT_TRUE(std::isnan(reaction[0]));  // row 0 has no step
  H5Fclose(sweep_file);
  const auto sweep_csv =
      table(run_nsh("simulate sweeping-interval --scheme catching-up --h 3/10 --T 3/2").out);
  ASSERT_EQ(sweep_csv.size(), 7u);
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(x[k], std::strtod(sweep_csv[k + 1][2].c_str(), nullptr)) << k;
    if (k > 0) {
      EXPECT_EQ(reaction[k], std::strtod(sweep_csv[k + 1][3].c_str(), nullptr)) << k;
    }
  }
}

// The HDF5 file of a frictional case holds PT and UT (and their column indices), the CSV's
// doubles bit for bit; a frictionless file has neither.
TEST(Output, Hdf5HoldsTheTangentialColumns) {
  const std::string run = "simulate rolling-cylinder --scheme moreau-jean --h 1/100";
  const fs::path h5 = scratch() / "cylinder.h5";
  const Result csv = run_nsh(run);
  ASSERT_EQ(csv.status, 0) << csv.err;
  ASSERT_EQ(run_nsh(run + " --out '" + h5.string() + "'").status, 0);
  const auto rows = table(csv.out);
  ASSERT_EQ(rows[0][9], "PT0");  // step, t, q0..2, v0..2, P0, PT0, UT0
  ASSERT_EQ(rows[0][10], "UT0");
  const hid_t file = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  std::vector<hsize_t> dims;
  const auto PT = read_doubles(file, "PT", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{rows.size() - 1, 1}));
  const auto UT = read_doubles(file, "UT", dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{rows.size() - 1, 1}));
  const auto UT_index = read_doubles(file, "columns/UT", dims);
  EXPECT_EQ(UT_index, std::vector<double>{0.0});
  H5Fclose(file);
  for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(PT[k]),
              std::bit_cast<std::uint64_t>(std::strtod(rows[k + 1][9].c_str(), nullptr)));
    EXPECT_EQ(std::bit_cast<std::uint64_t>(UT[k]),
              std::bit_cast<std::uint64_t>(std::strtod(rows[k + 1][10].c_str(), nullptr)));
  }
  const fs::path plain = scratch() / "two-body.h5";
  ASSERT_EQ(
      run_nsh("simulate two-body --scheme moreau-jean --h 1/10 --out '" + plain.string() + "'")
          .status,
      0);
  const hid_t frictionless = H5Fopen(plain.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(frictionless, 0);
  EXPECT_GT(H5Lexists(frictionless, "P", H5P_DEFAULT), 0);
  EXPECT_EQ(H5Lexists(frictionless, "PT", H5P_DEFAULT), 0);
  EXPECT_EQ(H5Lexists(frictionless, "UT", H5P_DEFAULT), 0);
  H5Fclose(frictionless);
}

#else

TEST(Output, WithoutHdf5TheFormatIsRefused) {
  const Result r = run_nsh("simulate bouncing-ball --scheme moreau-jean --out x.h5");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "without HDF5")) << r.err;
}

#endif

}  // namespace

namespace {

// `nsh simulate` on a terminal says how far a long run got (issue: an exact run grows faster
// than linearly and used to be silent); not on a pipe, not with --quiet. The terminal is a
// pseudo-terminal from util-linux `script`, and NSH_PROGRESS_SECONDS=0 prints every step.
std::string on_a_terminal(const std::string& args) {
  const fs::path log = scratch() / "terminal.txt";
  const std::string command = std::string("NSH_PROGRESS_SECONDS=0 NSH_CASES_DIR='") +
                              NSH_SOURCE_DIR + "/cases/data' script -qec \"'" + NSH_EXE + "' " +
                              args + "\" /dev/null >'" + log.string() + "' 2>&1 </dev/null";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return slurp(log);
}

TEST(SimulateProgress, ALineOnATerminalOnlyAndNotWithQuiet) {
  if (std::system("command -v script >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "util-linux script is not installed";
  const fs::path csv = scratch() / "progress.csv";
  const std::string run =
      "simulate bouncing-ball --scheme moreau-jean --precision rational "
      "--h 1/100 --T 1/10 --out '" +
      csv.string() + "'";
  const std::string shown = on_a_terminal(run);
  EXPECT_TRUE(has(shown, "nsh simulate: moreau-jean on bouncing-ball: step 1 of 10 (t = 1/100)"))
      << shown;
  EXPECT_TRUE(has(shown, "step 10 of 10 (t = 1/10)")) << shown;
  EXPECT_FALSE(has(on_a_terminal(run + " --quiet"), "nsh simulate:"));
  const Result piped = run_nsh(run);
  EXPECT_EQ(piped.status, 0) << piped.err;
  EXPECT_FALSE(has(piped.err, "nsh simulate:")) << piped.err;
  const Result bad =
      run_nsh("simulate bouncing-ball --scheme moreau-jean --T 1/10 --out '" + csv.string() +
              "' 2>&1; NSH_PROGRESS_SECONDS=soon '" + std::string(NSH_EXE) +
              "' simulate bouncing-ball --scheme "
              "moreau-jean --T 1/10 --out '" +
              csv.string() + "'");
  EXPECT_EQ(bad.status, 2) << bad.err;
  EXPECT_TRUE(has(bad.err, "NSH_PROGRESS_SECONDS")) << bad.err;
}

}  // namespace
