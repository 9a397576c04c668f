#include "joco/xml_error.h"

#include <tinyxml2.h>

#include "xml/xml_limits.h"

namespace joco {
namespace {

// The element tinyxml2's message names ("... XMLElement name=body"), or "".
std::string element_named_in(std::string_view error_str) {
  static constexpr std::string_view kKey = "XMLElement name=";
  const size_t at = error_str.find(kKey);
  if (at == std::string_view::npos) return "";
  std::string_view name = error_str.substr(at + kKey.size());
  const size_t end = name.find_first_of(" \t\r\n");
  return std::string(name.substr(0, end));
}

}  // namespace

std::string xml_error_in_words(int error_id, std::string_view error_str) {
  const std::string element = element_named_in(error_str);
  const std::string in_element = element.empty() ? "" : " in <" + element + ">";
  switch (error_id) {
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
      return element.empty()
                 ? "a closing tag does not match the element it closes (an element left open, or "
                   "a misspelt closing tag)"
                 : "element <" + element + "> is not closed where its parent ends (a missing </" +
                       element + ">, or a misspelt closing tag)";
    case tinyxml2::XML_ERROR_PARSING_ELEMENT:
      return "a tag cannot be read" + in_element +
             " (a stray '<', a missing '>' or '/>', or a name with characters XML does not allow)";
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
      return "an attribute cannot be read" + in_element +
             " (attributes are written name=\"value\", each name once, the value quoted)";
    case tinyxml2::XML_ERROR_PARSING_TEXT:
      return "text cannot be read" + in_element +
             " (a stray '&' or '<' in text: write &amp; and &lt;)";
    case tinyxml2::XML_ERROR_PARSING_CDATA: return "a <![CDATA[ section is not closed with ]]>";
    case tinyxml2::XML_ERROR_PARSING_COMMENT: return "a comment is not closed with -->";
    case tinyxml2::XML_ERROR_PARSING_DECLARATION:
      return "the <?xml ...?> declaration cannot be read (it must come first and end with ?>)";
    case tinyxml2::XML_ERROR_PARSING_UNKNOWN:
      return "a <!...> construct cannot be read (not closed with >)";
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: return "the document is empty: no XML element";
    case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED:
      return "elements nest deeper than " + std::to_string(kMaxXmlDepth) +
             " levels, the XML reader's limit (MuJoCo 2.2.2's too): at most " +
             std::to_string(kMaxBodyDepth) + " levels of <body>";
    case tinyxml2::XML_ERROR_PARSING:
      return "the XML cannot be read" + in_element +
             " (text or a second element after the root element, or a truncated file)";
    default: return "the XML cannot be read (" + std::string(error_str) + ")";
  }
}

}  // namespace joco
