#include "simulate/distribute.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "common/io.h"
#include "common/tool.h"
#include "common/trajectory_join.h"
#include "joco/error.h"

#ifdef JOCO_WITH_MPI
// MPI's C interface only: the C++ bindings, deprecated, need a library of their own.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace joco::tools {

namespace fs = std::filesystem;

void add_distribute_options(CLI::App& app, DistributeOptions& o, CLI::Option* model) {
  app.add_option("--shard", o.shard,
                 "Run the K-th (from 0) of N equal parts of the --batch (K/N), e.g. a Slurm "
                 "array task's; groups keep their global names and seeds");
  auto* join = app.add_option("--join", o.join,
                              "Join batch files (shards) into the -o file, no MODEL: rollouts as "
                              "external links to them, or copies with --self-contained")
                   ->expected(1, -1);
  app.add_flag("--self-contained", o.self_contained,
               "With --join or under mpirun: copy the rollouts into the output instead of linking "
               "to the parts (a file that stands alone)");
  // MODEL is required unless joining (CLI11 checks requirements before excludes).
  model->required(false);
  model->excludes(join);
  app.final_callback([model, join] {
    if (model->count() == 0 && join->count() == 0) throw CLI::RequiredError(model->get_name());
  });
}

namespace {
// runs.h5 -> runs.rank0of2.h5, beside it.
std::string rank_file(const std::string& output, int rank, int ranks) {
  const fs::path p(output);
  return (p.parent_path() / (p.stem().string() + ".rank" + std::to_string(rank) + "of" +
                             std::to_string(ranks) + p.extension().string()))
      .string();
}
}  // namespace

struct Distribution::Impl {
  bool mpi = false;  // joined the MPI world
  int rank = 0;
  int ranks = 1;
  // What finish() joins: set by plan() under mpirun with several ranks.
  bool planned = false;
  std::string output, own_file;
  std::vector<std::string> files;  // every rank's file, by rank
  JoinMode mode = JoinMode::kLinks;
};

#ifdef JOCO_WITH_MPI
namespace {

// Whether mpirun (OpenMPI, PMIx, or a PMI launcher such as MPICH's or Slurm's srun) started us.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(v)) return true;
  }
  return false;
}

// Waits for a nonblocking MPI operation without spinning: OpenMPI's blocking calls poll at full
// speed, so a rank done with its part would take the CPU from the ranks still running on the same
// cores (measured: 2 ranks, 3 humanoid rollouts, 1.5 s of CPU spent waiting).
void wait_idle(MPI_Request& request) {
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace
#endif

Distribution::Distribution(int& argc, char**& argv) : impl_(std::make_unique<Impl>()) {
#ifdef JOCO_WITH_MPI
  if (!launched_by_mpi()) return;
  // Only the main thread calls MPI; the rollouts' threads never do.
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return;
  impl_->mpi = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &impl_->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &impl_->ranks);
#else
  (void)argc;
  (void)argv;
#endif
}

Distribution::~Distribution() {
#ifdef JOCO_WITH_MPI
  if (impl_->mpi) MPI_Finalize();
#endif
}

int Distribution::rank() const { return impl_->rank; }
int Distribution::ranks() const { return impl_->ranks; }

RolloutPlan Distribution::plan(int batch, const DistributeOptions& o, const std::string& output) {
  Impl& d = *impl_;
  // One process writes its rollouts into one file already: there is nothing to copy.
  if (o.self_contained && d.ranks == 1) {
    throw UsageError(
        "--self-contained needs --join (or mpirun with several ranks): it copies the "
        "rollouts of joined parts into the output");
  }
  RolloutRange range{0, std::max(batch, 1)};
  if (!o.shard.empty()) {
    const Shard shard = parse_shard(o.shard);
    if (batch == 0) throw UsageError("--shard " + o.shard + " divides a batch: give --batch B");
    if (shard.count > batch) {
      throw UsageError("--shard " + o.shard + ": more parts than the " + std::to_string(batch) +
                       " rollouts of --batch");
    }
    range = part_of(range, shard);
  }
  if (d.ranks == 1) return {range, output};
  const std::string launch = "mpirun with " + std::to_string(d.ranks) + " ranks";
  if (batch == 0) throw UsageError(launch + " divides a batch among them: give --batch B");
  if (range.count < d.ranks) {
    throw UsageError(launch + ": more ranks than the " + std::to_string(range.count) +
                     " rollouts to run");
  }
  if (output == "-") {
    throw UsageError(launch +
                     ": -o must name a file (each rank writes its part beside it, rank 0 "
                     "joins them into it)");
  }
  d.planned = true;
  d.output = output;
  d.mode = o.self_contained ? JoinMode::kCopy : JoinMode::kLinks;
  for (int r = 0; r < d.ranks; ++r) d.files.push_back(rank_file(output, r, d.ranks));
  d.own_file = d.files[static_cast<size_t>(d.rank)];
  return {part_of(range, {d.rank, d.ranks}), d.own_file};
}

void Distribution::require_single_process(const DistributeOptions& o,
                                          const std::string& mode) const {
  if (!o.shard.empty()) throw UsageError(mode + " and --shard exclude each other");
  if (o.self_contained && mode != "--join") {
    throw UsageError("--self-contained needs --join: " + mode +
                     " writes one file, with nothing "
                     "to copy into it");
  }
  if (impl_->ranks > 1) {
    throw UsageError(mode + " runs in one process, not under mpirun with " +
                     std::to_string(impl_->ranks) + " ranks");
  }
}

int Distribution::join(const DistributeOptions& o, const std::string& output) const {
  require_single_process(o, "--join");
  const JoinSummary s =
      join_trajectory_files(output, o.join, o.self_contained ? JoinMode::kCopy : JoinMode::kLinks);
  spdlog::info("{} rollout(s) of {} file(s) joined into {}", s.rollouts, s.files,
               display_name(output, true));
  return kExitOk;
}

int Distribution::finish(int exit_code) {
  Impl& d = *impl_;
  if (!d.mpi || d.ranks == 1) return exit_code;
#ifdef JOCO_WITH_MPI
  int worst = 0;
  MPI_Request request;
  MPI_Iallreduce(&exit_code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &request);
  wait_idle(request);
  if (worst != kExitOk || !d.planned) {
    // No output from a run that failed anywhere: the parts of the ranks that succeeded go too.
    if (d.planned) std::remove(d.own_file.c_str());
    return exit_code != kExitOk ? exit_code : worst;
  }
  int result = kExitOk;
  if (d.rank == 0) {
    try {
      const JoinSummary s = join_trajectory_files(d.output, d.files, d.mode);
      spdlog::info("{} rollout(s) of {} ranks joined into {}", s.rollouts, d.ranks, d.output);
    } catch (...) {
      result = report_failure(std::current_exception());
    }
  }
  MPI_Ibcast(&result, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
  wait_idle(request);
  // Copies stand alone: the parts are removed; links need them.
  if (result != kExitOk || d.mode == JoinMode::kCopy) std::remove(d.own_file.c_str());
  return result;
#else
  return exit_code;
#endif
}

}  // namespace joco::tools
