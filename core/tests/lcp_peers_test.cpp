// Every LCP solver over the Siconos LCP test collection (core/tests/data/siconos-lcp/), with
// the outcome each solver must have on each file: see docs/lcp-peers.md for why.

#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/lcp/enumeration.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/number.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace nsh {
namespace {

template <class Scalar>
struct DenseLcp {
  Matrix<Scalar> W;
  Vector<Scalar> b;
};

/// The dense format of Siconos' LCP data: n, storage (0 = dense), n, n, rows cols, the n^2
/// entries of W, then b; anything after is a comment. Siconos reads the n^2 entries straight
/// into its column-major array, so each printed line of the file is a COLUMN of W (see
/// docs/lcp-peers.md for the evidence: read row by row, CPS_4 and Pang_isolated_sol are
/// infeasible and exp_murty2 is easy for Lemke, contrary to their notes).
template <class Scalar>
DenseLcp<Scalar> read_dense_lcp(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "cannot open");
  std::string token;
  auto next = [&](const std::string& field) {
    if (!(in >> token)) throw InputError(path + ": " + field, "missing");
    return token;
  };
  const long n = std::stol(next("n"));
  if (std::stol(next("storage")) != 0) throw InputError(path + ": storage", "not dense (0)");
  next("n");
  next("n");
  const long rows = std::stol(next("rows"));
  const long cols = std::stol(next("cols"));
  if (rows != n || cols != n) throw InputError(path + ": rows/cols", "must be n x n");
  DenseLcp<Scalar> p;
  p.W.resize(n, n);
  p.b.resize(n);
  for (long j = 0; j < n; ++j)
    for (long i = 0; i < n; ++i) {
      const std::string field = "W[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      p.W(i, j) = parse_number<Scalar>(next(field), field);
    }
  for (long i = 0; i < n; ++i) {
    const std::string field = "b[" + std::to_string(i) + "]";
    p.b(i) = parse_number<Scalar>(next(field), field);
  }
  return p;
}

std::string data_path(const std::string& file) {
  return std::string(NSH_SOURCE_DIR) + "/core/tests/data/siconos-lcp/" + file;
}

using S = LcpStatus;
constexpr S ok = S::solved, none = S::no_solution, cap = S::max_iterations, sing = S::singular;

/// Outcome of enumeration, Lemke, PGS, FB, prox in double, then enumeration and Lemke in
/// Rational (enumeration in Rational only for n <= 12). Established by running them; the
/// reasons are in docs/lcp-peers.md.
struct Expected {
  std::string file;
  Index n;
  S enumeration, lemke, pgs, fb, prox;
  S exact_enumeration, exact_lemke;
};

const std::vector<Expected> kExpected = {
    {"lcp_CPS_1.dat", 2, ok, ok, ok, ok, ok, ok, ok},
    {"lcp_CPS_2.dat", 3, ok, ok, sing, ok, sing, ok, ok},
    {"lcp_CPS_3.dat", 4, ok, none, sing, ok, sing, ok, none},
    {"lcp_CPS_4.dat", 4, ok, ok, sing, ok, sing, ok, ok},
    {"lcp_CPS_4bis.dat", 4, ok, ok, sing, ok, sing, ok, ok},
    {"lcp_CPS_5.dat", 2, ok, ok, ok, ok, ok, ok, ok},
    {"lcp_Pang_isolated_sol.dat", 3, ok, ok, sing, ok, sing, ok, ok},
    {"lcp_Pang_isolated_sol_perturbed.dat", 3, none, none, sing, cap, sing, none, none},
    {"lcp_deudeu.dat", 2, ok, ok, ok, ok, ok, ok, ok},
    {"lcp_enum_fails.dat", 9, ok, ok, sing, ok, sing, ok, ok},
    {"lcp_exp_murty.dat", 6, ok, ok, ok, ok, ok, ok, ok},
    {"lcp_exp_murty2.dat", 6, ok, ok, ok, ok, ok, ok, ok},
    {"lcp_inf_sol_perturbed.dat", 3, ok, ok, sing, ok, sing, ok, ok},
    {"lcp_mmc.dat", 26, cap, ok, ok, ok, ok, cap, ok},
    {"lcp_ortiz.dat", 4, ok, ok, ok, ok, ok, ok, ok},
    {"lcp_tobenna.dat", 40, cap, ok, sing, cap, sing, cap, ok},
    {"lcp_trivial.dat", 9, ok, ok, ok, ok, ok, ok, ok},
};

std::string describe(const std::string& file, const char* method, S expected,
                     const std::string& actual_status, const std::string& message) {
  return file + " / " + method + ": expected " + to_string(expected) + ", got " + actual_status +
         " (" + message + ")";
}

TEST(LcpPeers, EverySolverOnEveryFileHasItsStatedOutcome) {
  for (const Expected& e : kExpected) {
    const DenseLcp<double> p = read_dense_lcp<double>(data_path(e.file));
    ASSERT_EQ(p.b.size(), e.n) << e.file;
    const S want[] = {e.enumeration, e.lemke, e.pgs, e.fb, e.prox};
    const LcpMethod methods[] = {LcpMethod::enumeration, LcpMethod::lemke, LcpMethod::pgs,
                                 LcpMethod::fischer_burmeister, LcpMethod::prox_newton};
    for (int k = 0; k < 5; ++k) {
      const LcpResult<double> r = solve_lcp(methods[k], p.W, p.b);
      EXPECT_EQ(r.status, want[k])
          << describe(e.file, to_string(methods[k]), want[k], to_string(r.status), r.message);
      // `solved` always carries an accepted certificate; everything else never claims one.
      EXPECT_EQ(r.certificate.accepted, r.status == S::solved) << e.file;
    }
    const DenseLcp<Rational> q = read_dense_lcp<Rational>(data_path(e.file));
    // Every entry of the collection is a finite decimal: the rational data are exactly the
    // file's, and double's are their roundings.
    EXPECT_EQ(scalar_cast<double>(q.W), p.W) << e.file;
    const LcpResult<Rational> lemke = solve_lcp(LcpMethod::lemke, q.W, q.b);
    EXPECT_EQ(lemke.status, e.exact_lemke) << describe(e.file, "rational lemke", e.exact_lemke,
                                                       to_string(lemke.status), lemke.message);
    if (lemke.ok()) {
      EXPECT_EQ(lemke.certificate.natural_map, Rational(0)) << e.file;
    }
    if (e.n <= 12) {
      const LcpResult<Rational> en = solve_lcp(LcpMethod::enumeration, q.W, q.b);
      EXPECT_EQ(en.status, e.exact_enumeration) << describe(
          e.file, "rational enumeration", e.exact_enumeration, to_string(en.status), en.message);
      if (en.ok()) {
        EXPECT_EQ(en.certificate.natural_map, Rational(0)) << e.file;
      }
    }
  }
}

TEST(LcpPeers, KnownStructure) {
  // CPS_1: the solution set is z_1 + z_2 = 1; enumeration lists its two vertices.
  const DenseLcp<Rational> cps1 = read_dense_lcp<Rational>(data_path("lcp_CPS_1.dat"));
  const auto all = enumerate_lcp_solutions(cps1.W, cps1.b);
  ASSERT_EQ(all.size(), 2u);
  for (const auto& z : all) EXPECT_EQ(z(0) + z(1), Rational(1));
  // exp_murty2 (read column by column): Lemke needs 2^6 pivots, exp_murty only 2.
  const DenseLcp<Rational> m2 = read_dense_lcp<Rational>(data_path("lcp_exp_murty2.dat"));
  EXPECT_EQ(solve_lcp(LcpMethod::lemke, m2.W, m2.b).iterations, 64);
  const DenseLcp<Rational> m1 = read_dense_lcp<Rational>(data_path("lcp_exp_murty.dat"));
  EXPECT_EQ(solve_lcp(LcpMethod::lemke, m1.W, m1.b).iterations, 2);
  // Pang_isolated_sol: the isolated solution is e_1, found exactly by both pivoting methods.
  const DenseLcp<Rational> pang = read_dense_lcp<Rational>(data_path("lcp_Pang_isolated_sol.dat"));
  Vector<Rational> e1 = Vector<Rational>::Zero(3);
  e1(0) = Rational(1);
  EXPECT_EQ(solve_lcp(LcpMethod::lemke, pang.W, pang.b).z, e1);
  EXPECT_EQ(solve_lcp(LcpMethod::enumeration, pang.W, pang.b).z, e1);
  // tobenna (n = 40, degenerate): double Lemke follows Rational Lemke's pivot path exactly
  // (127 pivots) and lands on its solution. Before ties were judged at the rows' magnitude,
  // round-off of ~1e-15 in entries that are exactly zero broke a lexicographic tie at pivot 53
  // and double Lemke cycled past 10000 pivots.
  const DenseLcp<Rational> tq = read_dense_lcp<Rational>(data_path("lcp_tobenna.dat"));
  const DenseLcp<double> td = read_dense_lcp<double>(data_path("lcp_tobenna.dat"));
  const LcpResult<Rational> exact = solve_lcp(LcpMethod::lemke, tq.W, tq.b);
  const LcpResult<double> rounded = solve_lcp(LcpMethod::lemke, td.W, td.b);
  ASSERT_TRUE(exact.ok());
  ASSERT_TRUE(rounded.ok()) << rounded.message;
  EXPECT_EQ(exact.iterations, 127);
  EXPECT_EQ(rounded.iterations, exact.iterations);
  const Vector<double> z_exact = scalar_cast<double>(exact.z);
  for (Index i = 0; i < 40; ++i)
    EXPECT_NEAR(rounded.z(i), z_exact(i), 1e-9 * (1 + std::abs(z_exact(i)))) << "z[" << i << "]";
  // A bad entry names its field.
  EXPECT_THROW(parse_number<double>("x", "W[0][0]"), InputError);
}

}  // namespace
}  // namespace nsh
