#include "xml/attributes.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "joco/error.h"

namespace joco::compiler {

void AttributeReader::fail(const char* attribute, const std::string& reason) const {
  throw InputError(e_.where() + ": attribute '" + attribute + "': " + reason);
}

bool AttributeReader::read(const char* name, std::string& out) const {
  const std::string* v = e_.find(name);
  if (!v) return false;
  out = *v;
  return true;
}

std::string AttributeReader::required_string(const char* name) const {
  const std::string* v = e_.find(name);
  if (!v) throw InputError(e_.where() + ": missing required attribute '" + name + "'");
  return *v;
}

bool AttributeReader::read_numbers(const char* name, std::vector<double>& out) const {
  const std::string* text = e_.find(name);
  if (!text) return false;
  out.clear();
  const char* p = text->c_str();
  while (true) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
    if (!*p) break;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(p, &end);
    if (end == p || (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r')) {
      std::string token(p);
      token = token.substr(0, token.find_first_of(" \t\n\r"));
      fail(name, "'" + token + "' is not a number");
    }
    if (std::isnan(v)) fail(name, "NaN is not allowed");
    if (errno == ERANGE && std::isinf(v)) fail(name, "number out of range");
    // MuJoCo 2.2.2 reads neither hexadecimal numbers nor "infinity" nor "+inf" (it reads "inf" and
    // "-inf", in any case).
    const std::string token(p, static_cast<size_t>(end - p));
    const bool literal_inf = std::isinf(v) && errno != ERANGE;
    if (token.find_first_of("xX") != std::string::npos ||
        (literal_inf && token.size() != (token[0] == '-' ? 4u : 3u)) ||
        (literal_inf && token[0] == '+')) {
      fail(name, "'" + token + "' is not a number");
    }
    out.push_back(v);
    p = end;
  }
  return true;
}

void AttributeReader::check_count(const char* name, size_t count, size_t min_count,
                                  size_t max_count) const {
  if (count > max_count) {
    fail(name, "too many values (" + std::to_string(count) + ", at most " +
                   std::to_string(max_count) + ")");
  }
  if (count < min_count) {
    fail(name, "too few values (" + std::to_string(count) + ", expected " +
                   (min_count == max_count
                        ? std::to_string(max_count)
                        : std::to_string(min_count) + " to " + std::to_string(max_count)) +
                   ")");
  }
}

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// The decimal integer ([+-]digits, within 32 bits) at p, setting *end past it; false (and *end
// unset) when there is none or it does not fit.
bool parse_int(const char* p, int* out, const char** end) {
  const bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  if (*p < '0' || *p > '9') return false;
  long long v = 0;
  bool overflow = false;
  for (; *p >= '0' && *p <= '9'; ++p) {
    v = v * 10 + (*p - '0');
    if (v > 2147483648LL) {
      overflow = true;
      v = 2147483648LL;
    }
  }
  if (negative) v = -v;
  if (overflow || v > 2147483647LL) return false;
  *out = static_cast<int>(v);
  *end = p;
  return true;
}

}  // namespace

bool AttributeReader::read_into(const char* name, double* out, size_t max_count,
                                size_t min_count) const {
  std::vector<double> v;
  if (!read_numbers(name, v)) return false;
  check_count(name, v.size(), min_count, max_count);
  for (size_t i = 0; i < v.size(); ++i) out[i] = v[i];
  return true;
}

bool AttributeReader::read_into(const char* name, int* out, size_t max_count,
                                size_t min_count) const {
  // As MuJoCo 2.2.2 reads an int array of fixed size: whitespace-separated tokens, each wholly a
  // decimal integer; at least one, and no more than max_count.
  const std::string* text = e_.find(name);
  if (!text) return false;
  const char* p = text->c_str();
  size_t count = 0;
  while (true) {
    while (is_space(*p)) ++p;
    if (!*p) break;
    const char* token_end = p;
    while (*token_end && !is_space(*token_end)) ++token_end;
    if (count == max_count) check_count(name, count + 1, min_count, max_count);
    int v = 0;
    const char* end = nullptr;
    if (!parse_int(p, &v, &end) || end != token_end) {
      fail(name, "'" + std::string(p, token_end) + "' is not an integer");
    }
    out[count++] = v;
    p = token_end;
  }
  if (count == 0) fail(name, "expected an integer");
  check_count(name, count, min_count, max_count);
  return true;
}

bool AttributeReader::read(const char* name, double& out) const {
  return read_into(name, &out, 1, 1);
}

bool AttributeReader::read(const char* name, int& out) const {
  // As MuJoCo 2.2.2 reads a single integer: the leading decimal integer of the text, truncated to
  // 32 bits, whatever follows it ("1.5" is 1, "2x" is 2, "3 4" is 3).
  const std::string* text = e_.find(name);
  if (!text) return false;
  const char* p = text->c_str();
  char* end = nullptr;
  const long long v = std::strtoll(p, &end, 10);
  if (end == p) fail(name, "'" + *text + "' is not a number");
  out = static_cast<int>(v);
  return true;
}

bool AttributeReader::read_ints(const char* name, std::vector<int>& out) const {
  // As MuJoCo 2.2.2 reads a variable-length int list: integers one after another (with or without
  // whitespace between them), up to the first text that does not start one or does not fit.
  const std::string* text = e_.find(name);
  if (!text) return false;
  out.clear();
  const char* p = text->c_str();
  while (true) {
    while (is_space(*p)) ++p;
    int v = 0;
    const char* end = nullptr;
    if (!parse_int(p, &v, &end)) break;
    out.push_back(v);
    p = end;
  }
  return true;
}

bool AttributeReader::read_bool(const char* name, bool& out) const {
  const std::string* v = e_.find(name);
  if (!v) return false;
  if (*v == "true") {
    out = true;
  } else if (*v == "false") {
    out = false;
  } else {
    fail(name, "'" + *v + "' is not one of: false, true");
  }
  return true;
}

bool AttributeReader::read_keyword(const char* name, int& out,
                                   std::span<const std::pair<const char*, int>> keywords) const {
  const std::string* v = e_.find(name);
  if (!v) return false;
  for (const auto& [word, value] : keywords) {
    if (*v == word) {
      out = value;
      return true;
    }
  }
  std::string list;
  for (const auto& [word, value] : keywords) list += (list.empty() ? "" : ", ") + std::string(word);
  fail(name, "'" + *v + "' is not one of: " + list);
}

}  // namespace joco::compiler
