#include "common/run_size.h"

#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "common/tool.h"
#include "common/trajectory_writer.h"

namespace joco::tools {

namespace {

namespace fs = std::filesystem;

// Deflate's greatest compression ratio (a 258-byte match in about two bits: 1032 to 1).
constexpr long double kDeflateMaxRatio = 1032;

std::string bytes_text(long double bytes) {
  char text[64];
  if (bytes < 1e15L) {
    std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes / 1e9L));
  } else {
    std::snprintf(text, sizeof text, "%.2g bytes", static_cast<double>(bytes));
  }
  return text;
}

}  // namespace

void check_output_space(const std::string& output, long double rows, long double row_bytes,
                        const std::string& flags) {
  std::error_code ec;
  // A FIFO or a device (-o /dev/null) takes what it is given: nothing to check.
  if (output != "-" && fs::exists(output, ec) && !fs::is_regular_file(output, ec)) return;
  fs::path dir = output == "-" ? fs::temp_directory_path(ec) : fs::path(output).parent_path();
  if (dir.empty()) dir = ".";
  struct statvfs fsinfo {};
  if (statvfs(dir.c_str(), &fsinfo) != 0) return;  // an unusable place is the writer's to report
  const long double free_bytes =
      static_cast<long double>(fsinfo.f_bavail) * static_cast<long double>(fsinfo.f_frsize);
  const bool compressed = default_deflate_level() > 0;
  const long double need = rows * row_bytes / (compressed ? kDeflateMaxRatio : 1);
  if (need <= free_bytes) return;
  char rows_text[32];
  std::snprintf(rows_text, sizeof rows_text, "%.0Lf", rows);
  throw UsageError("the output would hold " + std::string(rows_text) + " rows of " +
                   std::to_string(static_cast<int64_t>(row_bytes)) + " bytes: at least " +
                   bytes_text(need) + (compressed ? " even at deflate's greatest ratio" : "") +
                   ", more than the " + bytes_text(free_bytes) + " free on the file system of " +
                   dir.string() + "; lower " + flags);
}

void check_memory_need(long double bytes, const std::string& what, const std::string& flags) {
  long double limit = static_cast<long double>(sysconf(_SC_PHYS_PAGES)) *
                      static_cast<long double>(sysconf(_SC_PAGE_SIZE));
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    limit = std::min(limit, static_cast<long double>(as.rlim_cur));
  }
  if (limit <= 0 || bytes <= limit) return;
  throw UsageError(what + " would need " + bytes_text(bytes) + " of memory, more than the " +
                   bytes_text(limit) + " this process can have; lower " + flags);
}

}  // namespace joco::tools
