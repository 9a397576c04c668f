// Where joco-simulate's rollouts run: all in this process, the K-th part of `--shard K/N`, or one
// rank's part of an MPI run (`mpirun -np N joco-simulate ...`), and how parts become one file
// (`--join`, and rank 0 at the end of an MPI run: tools/common/trajectory_join.h). Which global
// rollout indices a process runs is all that changes: a rollout computes the same bits anywhere.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "common/shard.h"

namespace joco::tools {

struct DistributeOptions {
  std::string shard;              // --shard K/N
  std::vector<std::string> join;  // --join FILE...
  bool self_contained = false;    // --self-contained: the join copies the rollouts
};

// Adds --shard, --join and --self-contained to joco-simulate's CLI; MODEL, required otherwise, is
// not taken with --join.
void add_distribute_options(CLI::App& app, DistributeOptions& o, CLI::Option* model);

// The rollouts this process runs (global indices) and the file it writes them to.
struct RolloutPlan {
  RolloutRange range;
  std::string path;
};

// This process's place in the run. Under mpirun (its environment says so: OMPI_COMM_WORLD_SIZE,
// PMIX_RANK or PMI_RANK) the constructor joins the MPI world and the destructor leaves it; a plain
// run, and every run of a build without MPI (JOCO_MPI off or MPI not found), never touches MPI and
// is one process of rank 0.
class Distribution {
 public:
  Distribution(int& argc, char**& argv);
  ~Distribution();
  Distribution(const Distribution&) = delete;
  Distribution& operator=(const Distribution&) = delete;

  int rank() const;
  int ranks() const;

  // The rollouts of a run of `batch` rollouts (0: one rollout, no batch) this process runs, and
  // where: the whole batch to `output`; the --shard part to `output`; under mpirun with N > 1
  // ranks, rank r's part (of the shard, when given) to OUTPUT's stem + ".rank<r>of<N>" + its
  // extension, joined by finish(). UsageError for a bad --shard, --shard or N > 1 ranks without
  // --batch, more parts than rollouts, or -o - under mpirun.
  RolloutPlan plan(int batch, const DistributeOptions& o, const std::string& output);
  // UsageError when `mode` (--evaluate, --join) is asked of several ranks or with --shard.
  void require_single_process(const DistributeOptions& o, const std::string& mode) const;

  // joco-simulate --join: the files of o.join into `output`.
  int join(const DistributeOptions& o, const std::string& output) const;

  // The end of a run, with this process's exit code. Under mpirun with N > 1 ranks every rank
  // calls it: the worst exit code of all ranks wins; when all succeeded rank 0 joins the ranks'
  // files into the output (external links, or copies with --self-contained, the rank files then
  // removed); when any failed every rank removes its file. Returns the process's exit code.
  int finish(int exit_code);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace joco::tools
