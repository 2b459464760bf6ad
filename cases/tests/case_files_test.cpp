// Every catalogue case has its file, every file is in the catalogue, every file loads in the
// three precisions, and a few steps of every registered scheme run on it.
#include <nsh/scalar.hpp>

#include <nsh/cases/analytic.hpp>
#include <nsh/cases/catalogue.hpp>
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

namespace {

const std::string data_dir = std::string(NSH_SOURCE_DIR) + "/cases/data/";

// A sparse case file ("sparse": true) is a large finite-element model: its dense copy is for
// double only, and a dense O(n^3) check in Real50 or Rational or every scheme on it would take
// minutes. sparse_bar_file_test.cpp checks its content (exactly, in Rational too) and the CLI
// tests run nsh events and one scheme on it.
bool is_sparse(const nsh::CaseDocument& doc) {
  const auto it = doc.root.find("sparse");
  return it != doc.root.end() && it->is_boolean() && it->get<bool>();
}

TEST(CaseFiles, CatalogueAndFilesAgree) {
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir))
    if (entry.path().extension() == ".json") files.insert(entry.path().filename().string());
  std::set<std::string> listed;
  for (const auto& c : nsh::cases::catalogue()) {
    EXPECT_EQ(c.file, c.name + ".json");
    EXPECT_FALSE(c.summary.empty()) << c.name;
    EXPECT_TRUE(files.count(c.file)) << c.file << " is missing";
    listed.insert(c.file);
    EXPECT_EQ(nsh::cases::find_case(c.name), &c);
  }
  for (const auto& f : files) EXPECT_TRUE(listed.count(f)) << f << " is not in the catalogue";
  EXPECT_EQ(nsh::cases::find_case("no-such-case"), nullptr);
}

TEST(CaseFiles, EveryFileLoadsInEveryPrecision) {
  for (const auto& c : nsh::cases::catalogue()) {
    const auto doc = nsh::read_case_file(data_dir + c.file);
    EXPECT_EQ(doc.name, c.name);
    EXPECT_EQ(doc.family, c.family);
    if (c.family != "linear") continue;  // loaded by their own family's reader
    if (is_sparse(doc)) {
      EXPECT_NO_THROW(nsh::load_sparse_linear_case<double>(doc)) << c.name;
      EXPECT_NO_THROW(nsh::load_sparse_linear_case<nsh::Real50>(doc)) << c.name;
      EXPECT_NO_THROW(nsh::load_linear_case<double>(doc)) << c.name;
      EXPECT_EQ(nsh::cases::has_analytic<double>(c.name), c.analytic) << c.name;
      continue;
    }
    EXPECT_NO_THROW(nsh::load_linear_case<double>(doc)) << c.name;
    EXPECT_NO_THROW(nsh::load_linear_case<nsh::Real50>(doc)) << c.name;
    EXPECT_NO_THROW(nsh::load_linear_case<nsh::Rational>(doc)) << c.name;
    EXPECT_EQ(nsh::cases::has_analytic<double>(c.name), c.analytic) << c.name;
  }
}

TEST(CaseFiles, EveryRegisteredSchemeRunsAFewStepsOnEveryCase) {
  const auto& registry = nsh::Registry::builtin();
  ASSERT_TRUE(registry.contains("event-driven"));
  for (const auto& c : nsh::cases::catalogue()) {
    if (c.family != "linear") continue;
    const auto doc = nsh::read_case_file(data_dir + c.file);
    if (is_sparse(doc)) continue;
    const auto lc = nsh::load_linear_case<double>(doc);
    const double h = lc.h ? *lc.h : (lc.T - lc.initial.t) / 100;
    for (const auto& name : registry.names()) {
      SCOPED_TRACE(c.name + " with " + name);
      auto scheme = registry.make<double>(name);
      try {
        const auto traj =
            nsh::record<double>(*scheme, lc.model, lc.initial, h, lc.initial.t + 5 * h);
        ASSERT_EQ(traj.states.size(), 6u);
        for (const auto& s : traj.states)
          for (nsh::Index i = 0; i < s.q.size(); ++i) {
            EXPECT_TRUE(std::isfinite(s.q(i)));
            EXPECT_TRUE(std::isfinite(s.v(i)));
          }
      } catch (const nsh::ModelError& e) {
        // A scheme may refuse a model outside its hypotheses; it must say so by a ModelError.
        std::printf("%s refuses %s: %s\n", name.c_str(), c.name.c_str(), e.what());
      }
    }
  }
}

}  // namespace
