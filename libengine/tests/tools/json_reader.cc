// Compiled into tool_tests only (see tools/CMakeLists.txt).
#include "tools/json_reader.h"

#include <cctype>
#include <cstring>
#include <stdexcept>

namespace joco::tools::test {
namespace {

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : t_(text) {}
  Json parse() {
    Json v = value();
    space();
    if (i_ != t_.size()) fail("trailing text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) {
    throw std::runtime_error("JSON: " + why + " at offset " + std::to_string(i_));
  }
  void space() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  void expect(char c) {
    space();
    if (i_ >= t_.size() || t_[i_] != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(const char* word) {
    const size_t n = std::strlen(word);
    if (t_.compare(i_, n, word) != 0) return false;
    i_ += n;
    return true;
  }
  std::string str() {
    expect('"');
    std::string out;
    while (i_ < t_.size() && t_[i_] != '"') {
      char c = t_[i_++];
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c == '\\') {
        if (i_ >= t_.size()) fail("bad escape");
        const char e = t_[i_++];
        switch (e) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case '"':
          case '\\':
          case '/': c = e; break;
          case 'u': {
            if (i_ + 4 > t_.size()) fail("bad \\u escape");
            c = static_cast<char>(std::stoi(t_.substr(i_, 4), nullptr, 16));
            i_ += 4;
            break;
          }
          default: fail("bad escape");
        }
      }
      out += c;
    }
    expect('"');
    return out;
  }
  Json value() {
    space();
    if (i_ >= t_.size()) fail("unexpected end");
    Json v;
    const char c = t_[i_];
    if (c == '{') {
      v.kind = Json::kObject;
      ++i_;
      space();
      if (t_[i_] == '}') {
        ++i_;
        return v;
      }
      do {
        const std::string key = str();
        expect(':');
        v.object[key] = value();
        space();
      } while (i_ < t_.size() && t_[i_] == ',' && ++i_);
      expect('}');
    } else if (c == '[') {
      v.kind = Json::kArray;
      ++i_;
      space();
      if (t_[i_] == ']') {
        ++i_;
        return v;
      }
      do {
        v.array.push_back(value());
        space();
      } while (i_ < t_.size() && t_[i_] == ',' && ++i_);
      expect(']');
    } else if (c == '"') {
      v.kind = Json::kString;
      v.string = str();
    } else if (literal("true") || literal("false")) {
      v.kind = Json::kBool;
      v.boolean = t_[i_ - 1] == 'e' && t_[i_ - 2] == 'u';
    } else if (literal("null")) {
      v.kind = Json::kNull;
    } else {
      size_t used = 0;
      v.kind = Json::kNumber;
      try {
        v.number = std::stod(t_.substr(i_, 40), &used);
      } catch (const std::exception&) {
        fail("bad value");
      }
      i_ += used;
    }
    return v;
  }

  const std::string& t_;
  size_t i_ = 0;
};

}  // namespace

Json parse_json(const std::string& text) { return JsonParser(text).parse(); }

}  // namespace joco::tools::test
