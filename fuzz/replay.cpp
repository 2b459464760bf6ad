// Standalone fuzz driver (any compiler; the fuzz ctest label runs it in CI): replays every file
// of the corpus directories through one target, then N deterministic random mutations of them
// (byte flips, insertions and deletions, spliced tokens that reach the limits of
// docs/limits.md: deep nesting, long digit strings, huge exponents and sizes, empty keys).
//
//   nsh_fuzz_replay case_file|scheme_spec [--mutations N] [--seed S] DIR...
//
// A finding aborts with the input printed (its first 2000 bytes). The
// same seed gives the same mutations on every machine (a 64-bit xorshift, no std::
// distributions, whose output differs between standard libraries).
#include "fuzz_targets.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

// Pieces that reach the limits and the corners of the readers.
std::vector<std::string> tokens() {
  return {"[",
          "]",
          "{",
          "}",
          ",",
          ":",
          "\"\"",
          "\"\": 1",
          "null",
          "true",
          "-",
          "0",
          "1/0",
          "1e99999",
          "1e-99999",
          "\"1e400\"",
          "-1e308",
          "1e200",
          "\"-1e160\"",
          "\"nan\"",
          "\"inf\"",
          "1/3",
          "\"rows\": 10000000",
          "\"cols\": 10000000",
          "\"sparse\": true",
          "\"G\": {\"rows\": 10000000, \"cols\": 10000000, \"entries\": []}",
          "\"M\"",
          "\"e\"",
          "\"T\"",
          "\"h\"",
          "\"q0\"",
          "\"family\": \"sweeping\"",
          std::string(300, '['),
          std::string(100000, '['),
          std::string(5000, '9'),
          "0." + std::string(4000, '0') + "1",
          ":theta=",
          ",",
          "=",
          "moreau-jean",
          "newmark:beta=",
          "event-driven",
          "penalty2:kappa=1e400",
          ":gamma=1/0"};
}

std::string mutate(std::string text, Rng& rng) {
  static const std::vector<std::string> pieces = tokens();
  const std::size_t rounds = 1 + rng.below(4);
  for (std::size_t r = 0; r < rounds; ++r) {
    const std::size_t at = rng.below(text.size() + 1);
    switch (rng.below(6)) {
      case 0:  // flip a byte
        if (!text.empty()) text[rng.below(text.size())] ^= static_cast<char>(1 + rng.below(255));
        break;
      case 1:  // insert a random byte
        text.insert(at, 1, static_cast<char>(rng.below(256)));
        break;
      case 2:  // delete a range
        if (!text.empty()) text.erase(at, 1 + rng.below(std::min<std::size_t>(64, text.size())));
        break;
      case 3:  // duplicate a range
        if (!text.empty()) {
          const std::size_t from = rng.below(text.size());
          const std::string piece = text.substr(from, 1 + rng.below(64));
          text.insert(rng.below(text.size() + 1), piece);
        }
        break;
      default:  // splice a token
        text.insert(at, pieces[rng.below(pieces.size())]);
        break;
    }
  }
  return text;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int usage() {
  std::fprintf(stderr,
               "usage: nsh_fuzz_replay case_file|scheme_spec [--mutations N] [--seed S] DIR...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string target = argv[1];
  void (*run)(const std::uint8_t*, std::size_t) = nullptr;
  if (target == "case_file") run = nsh::fuzz::case_file;
  if (target == "scheme_spec") run = nsh::fuzz::scheme_spec;
  if (!run) return usage();
  std::size_t mutations = 0;
  std::uint64_t seed = 20;
  std::vector<std::string> corpus;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--mutations" && i + 1 < argc) {
      mutations = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::error_code ec;
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(arg, ec))
        if (entry.is_regular_file()) files.push_back(entry.path());
      if (ec) {
        std::fprintf(stderr, "nsh_fuzz_replay: cannot read directory '%s'\n", arg.c_str());
        return 2;
      }
      std::sort(files.begin(), files.end());  // directory order is not deterministic
      for (const auto& f : files) corpus.push_back(read_all(f));
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "nsh_fuzz_replay: empty corpus\n");
    return 2;
  }
  for (const auto& input : corpus)
    run(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  Rng rng{seed * 0x9E3779B97F4A7C15ull + 1};
  for (std::size_t k = 0; k < mutations; ++k) {
    const std::string input = mutate(corpus[rng.below(corpus.size())], rng);
    run(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  }
  std::printf("nsh_fuzz_replay %s: %zu corpus inputs and %zu mutations (seed %llu): no finding\n",
              target.c_str(), corpus.size(), mutations, static_cast<unsigned long long>(seed));
  return 0;
}
