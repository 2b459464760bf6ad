#pragma once
// The shard file: what `nsh check --out FILE` writes (one JSON object, format
// "nsh-check-shard" version 2, its verdicts in the one JSON form of
// nsh/properties/verdict_io.hpp) and `nsh merge F1 F2 ...` combines. docs/decisions.md, "Shards".

#include <nsh/properties/check.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nsh::cli {

struct ShardFile {
  int shard{0};
  int shards{1};
  std::uint64_t seed{0};
  int cases{100};
  std::vector<std::string> schemes;     ///< the --scheme values as given ("all" by default)
  std::vector<std::string> properties;  ///< the --property values as given
  std::string restitution;              ///< the --restitution text, empty if none
  bool force{false};
  std::vector<properties::Verdict> verdicts;
};

/// "I/N" with integers 0 <= I < N; InputError naming --shard otherwise.
std::pair<int, int> parse_shard(const std::string& text);

void write_shard_file(const std::string& path, const ShardFile& file);
/// InputError naming the file and the field when it is not a shard file.
ShardFile read_shard_file(const std::string& path);

/// The verdicts of the unsharded run from one file per shard 0..N-1 (any order): InputError
/// naming the field when a shard is missing or repeated or the files come from different runs
/// (seed, cases, schemes, properties, restitution, force, the verdict rows). Per scheme x
/// property: cases_run and the coverage are sums; a failure is the one at the earliest
/// failing_case (the one the unsharded run reports first); a pass keeps shard 0's note (the
/// sharpness search runs there); a `whole` verdict is shard 0's.
std::vector<properties::Verdict> merge_shards(std::vector<std::pair<std::string, ShardFile>> files);

}  // namespace nsh::cli
