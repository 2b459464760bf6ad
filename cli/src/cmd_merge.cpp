// `nsh merge F1 F2 ...`: combines the shard files of `nsh check --shard I/N --out F` into the
// verdict table of the unsharded run (shard_file.hpp). nsh schedules nothing itself: a batch
// scheduler (Slurm array, CI matrix) runs the shards. Exit status 0 every verdict holds, 1 a
// shard found a violation (its counterexample is printed), 2 bad input (a missing or repeated
// shard, shards of different runs: the message names the field).
#include "commands.hpp"
#include "shard_file.hpp"

#include <nsh/properties/verdict_io.hpp>

#include <iostream>
#include <memory>

namespace nsh::cli {

void add_merge_command(CLI::App& app, int& status) {
  struct MergeArgs {
    std::vector<std::string> files;
    std::string junit;
  };
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand(
      "merge", "Combine the shard files of nsh check --shard I/N --out FILE (one per shard)");
  cmd->add_option("FILES", args->files, "the shard files, shards 0..N-1 each once, any order")
      ->required();
  cmd->add_option("--junit", args->junit, "write JUnit XML of the merged verdicts");
  cmd->callback([args, &status] {
    std::vector<std::pair<std::string, ShardFile>> files;
    for (const auto& path : args->files) files.emplace_back(path, read_shard_file(path));
    const auto verdicts = merge_shards(std::move(files));
    const int failed = properties::print_verdicts(std::cout, verdicts);
    if (!args->junit.empty()) properties::write_junit(args->junit, verdicts, "nsh merge");
    status = failed ? 1 : 0;
  });
}

}  // namespace nsh::cli
