// Reading untrusted HDF5 files without letting the HDF5 library take the tool down with it. The C
// library is not robust against damaged or hostile files: a changed byte in a header can make it
// read out of bounds (SIGSEGV), corrupt its heap (SIGABRT) or loop for ever. Before a tool opens an
// input file, guard_hdf5_read opens it the same way in a child process (fork) and reads all of it
// there: every link, object, attribute and dataset value the readers could ask for. A child that
// dies by a signal or stops making progress is an InputError (exit 3) naming the file; only a file
// the library has read whole without harm is then opened by the tool itself. schemas/trajectory.md
// ("Damaged and hostile files") gives the reasons for this design and its measured cost.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <string>

namespace joco::tools {

// Opens the input file in the child: must open it exactly as the tool will (path, file image,
// driver), returning a file identifier (negative on failure, which is then left to the tool to
// report).
using Hdf5Opener = std::function<hid_t()>;

// Reads the file opened by `open` in a child process: the groups on the way to `scope` ("/group")
// and everything under it and under /model, or the whole file when `scope` is empty. Throws
// InputError "NAME: damaged HDF5 file: ..." when the child dies by a signal or hangs (below). Call
// it while no other thread is inside the HDF5 library (the child inherits the library's state).
void guard_hdf5_read(const std::string& name, const Hdf5Opener& open,
                     const std::string& scope = "");

// When the child is taken to hang: no step of its reading (an object, an attribute, a block of
// rows) for kGuardIdleSeconds during which it used kGuardIdleCpuSeconds of CPU (busy, not starved
// on a loaded machine), or none for kGuardStallSeconds whatever it did.
inline constexpr int kGuardIdleSeconds = 5;
inline constexpr double kGuardIdleCpuSeconds = 0.5;
inline constexpr int kGuardStallSeconds = 60;

// How much the child's address space may grow beyond what it inherits (the walk reads blocks of
// 1 MB; the library's chunk cache is 1 MB a dataset).
inline constexpr uint64_t kGuardMemoryBytes = uint64_t{1} << 30;

// The reading done in the child, in this process (for the fuzz target, which runs it under the
// sanitizers): never throws; returns how many objects it read.
size_t read_whole_hdf5(hid_t file, const std::string& scope, const std::function<void()>& step);

}  // namespace joco::tools
