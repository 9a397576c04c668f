// joco-simulate's command line (main.cc defines the flags; man/joco-simulate.1 documents them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "simulate/distribute.h"

namespace joco::tools {

struct Options {
  std::string model, output = "-", ctrl, init, evaluate;
  std::vector<std::string> set;  // --set NAME=VALUES
  std::string params;            // --params FILE
  int64_t steps = -1;
  double ctrl_noise = 0;
  int64_t seed = 0;
  int64_t init_row = 0;
  int batch = 0;  // 0: one rollout, written as the root trajectory
  int threads = 1;
  bool contacts = false;
  bool strict = false;
  std::string record;            // --record LIST; empty: the default arrays
  int64_t every = 1;             // --every N: rows 0, N, 2N, ... are written
  DistributeOptions distribute;  // --shard, --join, --self-contained
};

}  // namespace joco::tools
