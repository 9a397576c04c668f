#include "common/shard.h"

#include <charconv>

#include "common/tool.h"

namespace joco::tools {

namespace {
// A whole decimal number filling `text` into out; false otherwise.
bool parse_int(std::string_view text, int& out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}
}  // namespace

Shard parse_shard(const std::string& text, const std::string& flag) {
  const size_t slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parse_int(std::string_view(text).substr(0, slash), s.index) ||
      !parse_int(std::string_view(text).substr(slash + 1), s.count)) {
    throw UsageError(flag + " " + text + ": expected K/N, the K-th (from 0) of N parts, e.g. 0/4");
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count) {
    throw UsageError(flag + " " + text + ": K must be in 0..N-1 and N at least 1");
  }
  return s;
}

RolloutRange part_of(RolloutRange range, Shard part) {
  const auto start = [&](int k) {
    return range.first + static_cast<int>(static_cast<int64_t>(k) * range.count / part.count);
  };
  const int first = start(part.index);
  return {first, start(part.index + 1) - first};
}

}  // namespace joco::tools
