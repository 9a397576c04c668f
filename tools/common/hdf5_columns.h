// Tables kept as one HDF5 dataset per column (joco-inverse's --external-loads, joco-simulate's
// --params), read in a reading process (h5_guard.h) like every HDF5 input.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <string>
#include <vector>

namespace joco::tools {

struct Hdf5Column {
  std::string name;
  std::vector<hsize_t> dims;   // as stored
  std::vector<double> values;  // row-major
};

// Every numeric dataset of `path` ("FILE.h5" or "FILE.h5:/group"), in name order. `what` names the
// file's role in messages ("the load file"). Throws InputError (no such file or group, a dataset
// that does not hold numbers, a damaged file).
std::vector<Hdf5Column> read_hdf5_columns(const std::string& path, const std::string& what);

}  // namespace joco::tools
