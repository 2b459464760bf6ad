// The one JSON form of a verdict (verdict_io.hpp): what to_json writes from_json reads back
// equal, for real verdicts of the gate and for every field set by hand; a malformed object is
// an InputError naming the field; the text table, CSV and JUnit agree with it.
#include <nsh/error.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/verdict_io.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace nsh::properties {
namespace {

Verdict every_field_set() {
  Verdict v;
  v.scheme = "moreau-jean:theta=0.3";
  v.property = "energy_identity";
  v.outcome = Outcome::fail;
  v.cases_run = 17;
  v.statement = "E_after - E_before = W - D  [claimed: every model]";
  v.note = "random search found a counterexample (shrunk)";
  Counterexample x;
  // Repeated names and an order that is not alphabetical: both must survive.
  x.values = {
      {"what", "defect"}, {"case", "random"}, {"Delta E - W", "+7.8e-4"}, {"case", "again"}};
  x.case_file = "{\n  \"name\": \"counterexample\"\n}\n";
  x.simulate_hint = "nsh simulate FILE --scheme 'moreau-jean' --h 1/10 --T 1";
  x.reproduce = "RC_PARAMS=\"seed=3\"";
  x.command = "nsh check --scheme 'moreau-jean' --property energy_identity --shard 1/3";
  v.counterexample = x;
  v.failing_case = 41;
  v.coverage = {{"evaluated", 17}, {"impact", 9}, {"impact", 1}};
  v.whole = true;
  return v;
}

TEST(VerdictJson, EveryFieldRoundTrips) {
  const Verdict v = every_field_set();
  EXPECT_EQ(from_json(to_json(v), "v"), v);
  // Through the text of the file too.
  EXPECT_EQ(from_json(nlohmann::json::parse(to_json(v).dump(2)), "v"), v);
  Verdict bare;
  bare.scheme = "catching-up";
  bare.property = "catching_up_error_bound";
  for (Outcome o : {Outcome::pass, Outcome::fail, Outcome::not_claimed, Outcome::not_applicable}) {
    bare.outcome = o;
    EXPECT_EQ(from_json(to_json(bare), "v"), bare) << outcome_key(o);
  }
}

TEST(VerdictJson, VerdictsOfTheGateRoundTrip) {
  CheckOptions options;
  options.cases = 5;
  options.seed = 3;
  const auto verdicts =
      run_checks({"mutant:mj-dropped-damping", "moreau-jean", "catching-up"},
                 {"energy_identity", "catching_up_error_bound", "projection_idempotent"}, options);
  ASSERT_GE(verdicts.size(), 6u);
  bool failed = false;
  for (const Verdict& v : verdicts) {
    failed = failed || v.counterexample.has_value();
    EXPECT_EQ(from_json(to_json(v), "v"), v) << v.scheme << " / " << v.property;
  }
  EXPECT_TRUE(failed);  // a counterexample went through the round trip
}

TEST(VerdictJson, FieldsAndOutcomeKeysAreTheDocumentedOnes) {
  const nlohmann::json j = to_json(every_field_set());
  for (const char* key : {"scheme", "property", "outcome", "cases_run", "statement", "note",
                          "counterexample", "failing_case", "coverage", "whole"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j.size(), 10u);
  EXPECT_EQ(j.at("counterexample").at("values")[2], nlohmann::json({"Delta E - W", "+7.8e-4"}));
  EXPECT_EQ(j.at("counterexample").at("simulate"),
            "nsh simulate FILE --scheme 'moreau-jean' --h 1/10 --T 1");
  EXPECT_EQ(to_json(Verdict{}).at("counterexample"), nullptr);
  EXPECT_EQ(to_json(Verdict{}).at("failing_case"), nullptr);
  EXPECT_STREQ(outcome_key(Outcome::not_claimed), "not_claimed");
  EXPECT_STREQ(outcome_key(Outcome::not_applicable), "not_applicable");
}

void expect_input_error(const nlohmann::json& j, const std::string& field) {
  try {
    (void)from_json(j, "verdicts[0]");
    ADD_FAILURE() << "accepted " << j.dump();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("verdicts[0]." + field), std::string::npos) << e.what();
  }
}

TEST(VerdictJson, AMalformedVerdictNamesTheField) {
  const nlohmann::json good = to_json(every_field_set());
  nlohmann::json j = good;
  j.erase("note");
  expect_input_error(j, "note");
  j = good;
  j["outcome"] = "n/a";  // the display text is not the key
  expect_input_error(j, "outcome");
  j = good;
  j["cases_run"] = "many";
  expect_input_error(j, "cases_run");
  j = good;
  j["counterexample"]["values"] = nlohmann::json::object({{"what", "defect"}});
  expect_input_error(j, "counterexample.values");
  j = good;
  j["coverage"] = nlohmann::json::array({nlohmann::json::array({"impact", "nine"})});
  expect_input_error(j, "coverage");
  j = good;
  j["counterexample"].erase("simulate");
  expect_input_error(j, "counterexample.simulate");
}

TEST(VerdictText, TableCsvAndJunitSayTheSame) {
  Verdict pass;
  pass.scheme = "moreau-jean";
  pass.property = "energy_identity";
  pass.outcome = Outcome::pass;
  pass.cases_run = 104;
  const std::vector<Verdict> verdicts{pass, every_field_set()};
  std::ostringstream table;
  EXPECT_EQ(print_verdicts(table, verdicts), 1);
  EXPECT_NE(table.str().find("--- FAIL moreau-jean:theta=0.3 / energy_identity"),
            std::string::npos);
  EXPECT_NE(table.str().find("Delta E - W = +7.8e-4"), std::string::npos);
  EXPECT_NE(table.str().find("2 verdict(s): 1 failed"), std::string::npos);
  EXPECT_EQ(verdicts_csv(verdicts),
            "scheme,property,outcome,cases_run,note\n"
            "\"moreau-jean\",\"energy_identity\",pass,104,\"\"\n"
            "\"moreau-jean:theta=0.3\",\"energy_identity\",fail,17,\"random search found a "
            "counterexample (shrunk)\"\n");
  const std::string path = ::testing::TempDir() + "verdict_io_test.xml";
  write_junit(path, verdicts, "suite");
  std::ifstream in(path);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  EXPECT_NE(xml.find("tests=\"2\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("classname=\"nsh.moreau-jean:theta=0\u20243\""), std::string::npos) << xml;
}

}  // namespace
}  // namespace nsh::properties
