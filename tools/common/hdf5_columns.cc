#include "common/hdf5_columns.h"

#include <hdf5.h>

#include "common/h5.h"
#include "common/h5_guard.h"
#include "joco/error.h"

namespace joco::tools {

namespace {

// In the reading process: the group's datasets as the library lists them by index.
std::vector<Hdf5Column> read_columns(const std::string& file, const std::string& group,
                                     const std::string& path, const std::string& what,
                                     const std::function<void()>& step) {
  H5Handle f = make_in(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                       file + ": cannot open " + what);
  read_whole_hdf5(f.get(), group, step);
  H5Handle g =
      make_in(H5Gopen2(f.get(), group.c_str(), H5P_DEFAULT), H5Gclose, path + ": no such group");
  H5G_info_t info;
  if (H5Gget_info(g.get(), &info) < 0) fail_input(path + ": cannot list the group");
  std::vector<Hdf5Column> columns;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t n =
        H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (n < 0) fail_input(path + ": cannot list the group");
    std::string name(static_cast<size_t>(n), '\0');
    H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(),
                       static_cast<size_t>(n) + 1, H5P_DEFAULT);
    if (object_type(g.get(), name) != H5I_DATASET) continue;  // a listed name
    const std::string where = path + "/" + name;
    const InputDataset d = open_numeric(g.get(), name, where);
    Hdf5Column c{name, d.dims, {}};
    size_t count = 1;
    for (hsize_t k : c.dims) count *= static_cast<size_t>(k);
    c.values.resize(count);
    if (!d.dims.empty() && count > 0) {
      read_doubles(d.dataset.get(), d.dims, 0, d.dims[0], c.values.data(), where);
    } else if (d.dims.empty()) {
      H5Dread(d.dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, c.values.data());
    }
    columns.push_back(std::move(c));
    step();
  }
  return columns;
}

}  // namespace

std::vector<Hdf5Column> read_hdf5_columns(const std::string& path, const std::string& what) {
  std::string file = path, group = "/";
  const size_t colon = path.rfind(":/");
  if (colon != std::string::npos) {
    file = path.substr(0, colon);
    group = path.substr(colon + 1);
  }
  const auto process =
      ReaderProcess::start(file, [&](const std::function<void()>& step) -> ReaderHandler {
        auto read =
            std::make_shared<std::vector<Hdf5Column>>(read_columns(file, group, path, what, step));
        return [read](Wire&, Wire& out, ReplyStream&) {
          out.put(static_cast<uint64_t>(read->size()));
          for (const Hdf5Column& c : *read) {
            out.put(c.name);
            out.put(std::vector<size_t>(c.dims.begin(), c.dims.end()));
            out.put_doubles(c.values);
          }
        };
      });
  Wire reply = process->call(Wire());
  std::vector<Hdf5Column> columns(reply.u64());
  for (Hdf5Column& c : columns) {
    c.name = reply.string();
    const std::vector<size_t> dims = reply.sizes();
    c.dims.assign(dims.begin(), dims.end());
    c.values = reply.doubles();
  }
  return columns;
}

}  // namespace joco::tools
