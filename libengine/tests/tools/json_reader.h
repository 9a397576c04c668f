// A small JSON reader for tests that read what the tools write (reports, joco-view's replay data):
// strict enough to reject what is not JSON. \\u escapes below 0x100 only.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace joco::tools::test {

struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  const Json& operator[](const std::string& key) const {
    static const Json missing;
    auto it = object.find(key);
    return it == object.end() ? missing : it->second;
  }
  bool has(const std::string& key) const { return object.count(key) > 0; }
};

// Parses a JSON document; throws std::runtime_error saying where it is not JSON.
Json parse_json(const std::string& text);

}  // namespace joco::tools::test
