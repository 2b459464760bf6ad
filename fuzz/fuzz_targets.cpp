// The fuzz entry points (fuzz_targets.hpp).
#include "fuzz_targets.hpp"

#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/trajectory_csv.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/io/sweeping_case.hpp>
#include <nsh/registry.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <typeinfo>

namespace nsh::fuzz {
namespace {

template <class F>
void guarded(const char* target, const std::uint8_t* data, std::size_t size, F&& body) {
  try {
    body();
  } catch (const InputError& e) {
    // The expected answer to bad input (exit 2), if its message names the field and stays
    // short whatever the input (the scan of issue 21.4 over every mutated input).
    if (e.field().empty())
      finding(target, std::string("an InputError names no field: ") + e.what(), data, size);
    // A message may quote the offending text (a spec, a key); it must not amplify the input
    // (a dump of a deep value, a list of every entry).
    if (std::string_view(e.what()).size() > 1500 + 3 * size)
      finding(target,
              "an InputError message of " + std::to_string(std::strlen(e.what())) +
                  " characters for " + std::to_string(size) + " bytes of input: " + e.what(),
              data, size);
  } catch (const std::exception& e) {
    finding(target, std::string("escaped ") + typeid(e).name() + ": " + e.what(), data, size);
  } catch (...) {
    finding(target, "escaped a non-std exception", data, size);
  }
}

/// The first steps of a loaded case under `scheme`, written as `nsh simulate` writes them
/// (row 0 only once the driver's checks passed): a run may be refused (InputError, exit 2) or
/// stop (StepError, exit 1), but no row it writes holds inf or nan (issue 21.1), whatever
/// finite numbers the case holds.
void run_first_steps(const LinearCase<double>& c, const char* scheme_spec,
                     const std::uint8_t* data, std::size_t size) {
  constexpr Index kSteps = 8;
  const double h = c.h ? *c.h : (c.T - c.initial.t) / 100;
  if (!(h > 0) || !is_finite(h)) return;  // the driver's refusal is tested elsewhere
  const double T = std::min(c.T, c.initial.t + kSteps * h);
  auto scheme = Registry::builtin().make<double>(scheme_spec);
  std::ostringstream csv;
  TrajectoryCsvWriter<double> writer(csv, c.model);
  bool initial_written = false;
  const auto write_initial = [&] {
    if (!initial_written) writer.initial(c.initial);
    initial_written = true;
  };
  try {
    simulate<double>(*scheme, c.model, c.initial, h, T,
                     [&](const State<double>& state, const StepSummary<double>& summary) {
                       write_initial();
                       writer.step(state, summary);
                     });
    write_initial();
  } catch (const StepError&) {
    // Exit 1 with the step named: an honest stop. The rows before it, row 0 included as nsh
    // simulate writes it, are checked below.
    try {
      write_initial();
    } catch (const StepError&) {
      // Row 0 itself refused: nothing written.
    }
  }
  const std::string text = csv.str();
  for (const char* word : {"inf", "nan"})
    if (text.find(word) != std::string::npos)
      finding("case_file run", std::string(scheme_spec) + " wrote '" + word + "' in a row:\n" +
                                   text.substr(0, 600),
              data, size);
}

}  // namespace

void finding(const std::string& target, const std::string& what, const std::uint8_t* data,
             std::size_t size) {
  std::fprintf(stderr, "nsh fuzz %s: %.*s\ninput (%zu bytes):\n%.*s\n", target.c_str(),
               static_cast<int>(what.size() > 600 ? 600 : what.size()), what.c_str(), size,
               static_cast<int>(size > 2000 ? 2000 : size), reinterpret_cast<const char*>(data));
  std::abort();
}

void case_file(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  guarded("case_file", data, size, [&] {
    const CaseDocument document = parse_case_text(text, "<fuzz>");
    if (document.family == "sweeping" || document.family == "penalty-line") {
      load_sweeping_case<double>(document);
      return;
    }
    if (document.family == "nonholonomic") {
      guarded("case_file nonholonomic double", data, size,
              [&] { load_nonholonomic_case<double>(document); });
      guarded("case_file nonholonomic Real50", data, size,
              [&] { load_nonholonomic_case<Real50>(document); });
      return;
    }
    // Each loader on its own: one refusing must not hide a crash in another.
    guarded("case_file double", data, size, [&] {
      const LinearCase<double> c = load_linear_case<double>(document);
      // A few steps of small models (the budget goes to many inputs, as below).
      if (c.model.dofs() <= 16 && c.model.contacts() <= 16)
        for (const char* scheme : {"moreau-jean", "gen-alpha"})
          guarded("case_file run", data, size, [&] { run_first_steps(c, scheme, data, size); });
    });
    guarded("case_file Real50", data, size, [&] { load_linear_case<Real50>(document); });
    // Exact elimination of a large model is seconds of work that finds nothing the other
    // scalars do not (the 101-dof bar: 3 s); the fuzz budget goes to many small inputs instead.
    const auto& M = document.root.find("M");
    const bool small = M == document.root.end() || !M->is_array() || M->size() <= 16;
    if (small)
      guarded("case_file Rational", data, size, [&] { load_linear_case<Rational>(document); });
    guarded("case_file sparse", data, size, [&] { load_sparse_linear_case<double>(document); });
  });
}

void scheme_spec(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  guarded("scheme_spec", data, size, [&] {
    SchemeSpec::parse(text);
    const SchemeSpec resolved = Registry::builtin().resolve(text);
    Registry::builtin().make<double>(resolved.str());
  });
}

}  // namespace nsh::fuzz
