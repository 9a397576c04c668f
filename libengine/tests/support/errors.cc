#include "support/errors.h"

namespace joco::test {

void expect_fragments(const std::string& message, const std::string& expected,
                      const std::string& what) {
  ASSERT_FALSE(message.empty()) << what << ": accepted without error";
  size_t start = 0;
  while (start <= expected.size()) {
    const size_t end = expected.find('|', start);
    const std::string fragment =
        expected.substr(start, end == std::string::npos ? std::string::npos : end - start);
    EXPECT_NE(message.find(fragment), std::string::npos)
        << what << ": '" << fragment << "' not in: " << message;
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

}  // namespace joco::test
