// Malformed XML is described in words, naming the element, not by tinyxml2's error code.
#include "joco/xml_error.h"

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <string>

namespace joco {
namespace {

std::string words_for(const std::string& xml) {
  tinyxml2::XMLDocument doc;
  EXPECT_NE(doc.Parse(xml.data(), xml.size()), tinyxml2::XML_SUCCESS) << xml;
  return xml_error_in_words(doc.ErrorID(), doc.ErrorStr() ? doc.ErrorStr() : "");
}

TEST(XmlErrorInWords, NamesTheElementLeftOpen) {
  EXPECT_EQ(words_for("<mujoco><worldbody><body></worldbody></mujoco>"),
            "element <body> is not closed where its parent ends (a missing </body>, or a misspelt "
            "closing tag)");
}

TEST(XmlErrorInWords, SaysWhatEachKindOfFaultIs) {
  const struct {
    const char* xml;
    const char* words;
  } cases[] = {
      {"<mujoco><geom size=0.1/></mujoco>", "an attribute cannot be read in <geom>"},
      {"<mujoco><!-- open </mujoco>", "a comment is not closed with -->"},
      {"", "the document is empty"},
      {"<mujoco><geom", "a tag cannot be read"},
      {"<mujoco><![CDATA[ x </mujoco>", "a <![CDATA[ section is not closed"},
  };
  for (const auto& c : cases) {
    const std::string words = words_for(c.xml);
    EXPECT_NE(words.find(c.words), std::string::npos) << c.xml << " -> " << words;
    EXPECT_EQ(words.find("ErrorID"), std::string::npos) << words;
  }
}

}  // namespace
}  // namespace joco
