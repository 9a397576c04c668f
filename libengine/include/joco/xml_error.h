// What is wrong with malformed XML, in words: tinyxml2 reports "Error=XML_ERROR_MISMATCHED_ELEMENT
// ErrorID=14 (0xe) Line number=3: XMLElement name=body", which tells a user little. Shared by the
// MJCF and URDF readers and the tools' other XML inputs (OpenSim set-up and external-load files).
#pragma once

#include <string>
#include <string_view>

namespace joco {

// `error_id` is tinyxml2's XMLError; `error_str` its XMLDocument::ErrorStr() (from which the name
// of the element concerned is taken, when it says one). Returns, e.g., "element <body> is not
// closed where its parent ends (a missing </body>, or a misspelt closing tag)".
std::string xml_error_in_words(int error_id, std::string_view error_str);

}  // namespace joco
