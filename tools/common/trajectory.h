// HDF5 trajectory files (schemas/trajectory.md is the specification): writing trajectories row by
// row, and reading and checking them, without the tools touching HDF5 themselves.
//
// A trajectory is an HDF5 group with one row per time step: the root group of a file, or one group
// per rollout in a batch file (/rollout_00000, /rollout_00001, ...). Tools address one with
// "FILE.h5" or "FILE.h5:/group"; "-" is standard input (read whole, opened as a file image) or
// standard output (written to a temporary file, copied out on commit).
//
// Every problem with an input throws InputError (exit code 3) naming the file, group and dataset;
// a failure while writing throws RuntimeError (exit code 4). The serial HDF5 library is not
// thread-safe: use these classes from one thread at a time.
#pragma once

#include "common/trajectory_path.h"    // FILE.h5:/group arguments, rollout groups, locations
#include "common/trajectory_reader.h"  // TrajectoryInput, Trajectory: reading and checking
#include "common/trajectory_states.h"  // TrajectoryStates: a file's rows put into a Data
#include "common/trajectory_table.h"   // the datasets: names, shapes, types, roles
#include "common/trajectory_writer.h"  // TrajectoryFileWriter, TrajectoryWriter
