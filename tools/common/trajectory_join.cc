#include "common/trajectory_join.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <map>

#include "common/h5.h"
#include "common/io.h"
#include "common/tool.h"
#include "common/trajectory_path.h"
#include "common/trajectory_reader.h"
#include "joco/error.h"

namespace joco::tools {

namespace fs = std::filesystem;

namespace {

// Where a rollout group of an input really is: the input itself, or, when the input is a file of
// links (an earlier join), the file its external link names, resolved from the input's directory
// as HDF5 resolves it (so that a join of joins links to the data, one level deep).
struct RolloutSource {
  std::string input;  // the input file holding the link or group
  std::string file;   // the file holding the group
  std::string group;  // its path there
};

RolloutSource source_of(hid_t root, const std::string& input, const std::string& group) {
  RolloutSource s{input, input, group};
  H5L_info_t info;
  if (H5Lget_info(root, group.c_str(), &info, H5P_DEFAULT) < 0 || info.type != H5L_TYPE_EXTERNAL) {
    H5Eclear2(H5E_DEFAULT);
    return s;
  }
  std::vector<char> value(info.u.val_size);
  const char* file = nullptr;
  const char* object = nullptr;
  unsigned flags = 0;
  if (H5Lget_val(root, group.c_str(), value.data(), value.size(), H5P_DEFAULT) < 0 ||
      H5Lunpack_elink_val(value.data(), value.size(), &flags, &file, &object) < 0) {
    fail_input("cannot read the link " + location(input, group));
  }
  fs::path target(file);
  if (target.is_relative()) target = fs::path(input).parent_path() / target;
  s.file = target.string();
  s.group = object;
  return s;
}

// The name an external link of `output` stores for `file`: relative to the output's directory when
// it can be (the files then move together), else absolute.
std::string link_name(const std::string& output, const std::string& file) {
  const fs::path dir = fs::absolute(output).parent_path();
  const fs::path target = fs::absolute(file).lexically_normal();
  fs::path relative = target.lexically_relative(dir);
  return relative.empty() ? target.string() : relative.string();
}

}  // namespace

JoinSummary join_trajectory_files(const std::string& output, const std::vector<std::string>& inputs,
                                  JoinMode mode) {
  silence_hdf5();
  if (inputs.empty()) throw UsageError("--join: no input files");
  if (output == "-" && mode == JoinMode::kLinks) {
    throw UsageError(
        "--join -o -: a file of links must be a file beside its inputs (give -o FILE, or "
        "--self-contained to copy the rollouts)");
  }
  // Every input's rollouts, checked before anything is written.
  std::map<long long, RolloutSource> rollouts;
  std::optional<uint64_t> checksum;
  for (const std::string& input : inputs) {
    if (input == "-") throw UsageError("--join: inputs are files, not standard input");
    const TrajectoryInput in = TrajectoryInput::open(input);
    const std::vector<std::string> groups = in.rollout_groups();
    if (groups.empty()) {
      throw InputError(input +
                       ": holds no /rollout_NNNNN group; --join takes batch files "
                       "(joco-simulate --batch)");
    }
    const std::optional<uint64_t> sum = in.model_info().model_checksum;
    if (!checksum) {
      checksum = sum;
    } else if (sum && *sum != *checksum) {
      throw InputError(input + ": written for another model than " + inputs[0] +
                       " (/model/model_checksum differs)");
    }
    H5Handle file = make_in(H5Fopen(input.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                            input + ": cannot open as HDF5");
    for (const std::string& g : groups) {
      const long long index = *rollout_index(std::string_view(g).substr(1));
      const auto [it, added] = rollouts.emplace(index, source_of(file.get(), input, g));
      if (!added) {
        throw InputError(location(input, g) + ": also in " + it->second.input +
                         "; each rollout may be joined once");
      }
    }
  }

  AtomicOutput out(output);
  const std::string name = display_name(output, true);
  H5Handle fcpl = plist(H5P_FILE_CREATE);
  untimed(fcpl.get());
  H5Handle file =
      make_out(H5Fcreate(out.temp_path().c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT), H5Fclose,
               "cannot create " + name);
  if (mode != JoinMode::kLinks) {
    // H5Ocopy crashes in its clean-up when a write fails (HDF5 1.10): a full disk or file size
    // limit is found before it, against the inputs' size (what the copies take, at most).
    uint64_t bytes = 0;
    for (const std::string& input : inputs) {
      std::error_code ec;
      const uint64_t size = std::filesystem::file_size(input, ec);
      if (!ec) bytes += size;
    }
    check_room(out.temp_path(), bytes, name);
  }
  {
    H5Handle first = make_in(H5Fopen(inputs[0].c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                             inputs[0] + ": cannot open as HDF5");
    if (has_object(first.get(), "/model", H5I_GROUP) &&
        H5Ocopy(first.get(), "model", file.get(), "model", H5P_DEFAULT, H5P_DEFAULT) < 0) {
      fail_write("cannot copy " + location(inputs[0], "/model") + " to " + name);
    }
  }
  // Each input is opened once for its rollouts, in index order.
  std::map<std::string, H5Handle> opened;
  for (const auto& [index, s] : rollouts) {
    const std::string group = rollout_group(static_cast<int>(index));
    const std::string what = location(name, group);
    if (mode == JoinMode::kLinks) {
      if (H5Lcreate_external(link_name(output, s.file).c_str(), s.group.c_str(), file.get(),
                             group.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0) {
        fail_write("cannot create the link " + what);
      }
      continue;
    }
    H5Handle& in = opened[s.input];
    if (!in.valid()) {
      in = make_in(H5Fopen(s.input.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                   s.input + ": cannot open as HDF5");
    }
    if (H5Ocopy(in.get(), group.c_str(), file.get(), group.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0)
      fail_write("cannot copy " + location(s.input, group) + " to " + what);
  }
  opened.clear();
  if (!file.close()) fail_write("cannot write " + name);
  out.commit();

  JoinSummary summary;
  summary.files = static_cast<int>(inputs.size());
  summary.rollouts = static_cast<int>(rollouts.size());
  summary.missing = static_cast<int>(rollouts.rbegin()->first + 1) - summary.rollouts;
  if (summary.missing > 0) {
    std::string list;
    long long expected = 0;
    for (const auto& [index, s] : rollouts) {
      if (index > expected) {
        list += fmt::format("{}{}", list.empty() ? "" : ", ", expected);
        if (index - 1 > expected) list += fmt::format("-{}", index - 1);
      }
      expected = index + 1;
    }
    spdlog::warn("{}: rollouts {} are in none of the joined files", name, list);
  }
  return summary;
}

}  // namespace joco::tools
