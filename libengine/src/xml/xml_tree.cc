#include "xml/xml_tree.h"

#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "joco/error.h"
#include "joco/xml_error.h"
#include "xml/xml_limits.h"

namespace joco::compiler {

namespace fs = std::filesystem;

const std::string* XmlElement::find(std::string_view attribute) const {
  for (const auto& [key, value] : attributes) {
    if (key == attribute) return &value;
  }
  return nullptr;
}

std::string XmlElement::where() const {
  return (file ? *file : std::string("<input>")) + ":" + std::to_string(line) + ": <" + name + ">";
}

namespace {

std::string read_text_file(const std::string& path, const std::string& context) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(context + "cannot open file '" + path + "'");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class Loader {
 public:
  Loader(std::string base_dir, bool expand) : base_dir_(std::move(base_dir)), expand_(expand) {}

  XmlElement load(const std::string& text, const std::string& source) {
    auto doc = std::make_unique<tinyxml2::XMLDocument>(true, tinyxml2::COLLAPSE_WHITESPACE);
    if (doc->Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
      throw InputError(source + ":" + std::to_string(doc->ErrorLineNum()) + ": malformed XML: " +
                       xml_error_in_words(doc->ErrorID(), doc->ErrorStr() ? doc->ErrorStr() : ""));
    }
    const tinyxml2::XMLElement* root = doc->RootElement();
    if (!root) throw InputError(source + ": no XML element found");
    auto file = std::make_shared<const std::string>(source);
    return convert(*root, file);
  }

 private:
  XmlElement convert(const tinyxml2::XMLElement& e,
                     const std::shared_ptr<const std::string>& file) {
    XmlElement out;
    out.name = e.Name();
    out.file = file;
    out.line = e.GetLineNum();
    for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next()) {
      out.attributes.emplace_back(a->Name(), a->Value());
    }
    for (const tinyxml2::XMLNode* n = e.FirstChild(); n; n = n->NextSibling()) {
      if (const tinyxml2::XMLText* t = n->ToText()) out.text += t->Value();
    }
    const size_t first = out.text.find_first_not_of(" \t\r\n");
    out.text = first == std::string::npos
                   ? ""
                   : out.text.substr(first, out.text.find_last_not_of(" \t\r\n") - first + 1);
    for (const tinyxml2::XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (expand_ && std::string_view(c->Name()) == "include") {
        include(out, *c, file);
      } else {
        out.children.push_back(convert(*c, file));
      }
    }
    return out;
  }

  void include(XmlElement& parent, const tinyxml2::XMLElement& e,
               const std::shared_ptr<const std::string>& file) {
    const std::string where = *file + ":" + std::to_string(e.GetLineNum()) + ": <include>: ";
    const char* name = e.Attribute("file");
    if (!name) throw InputError(where + "missing required attribute 'file'");
    for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next()) {
      if (std::string_view(a->Name()) != "file") {
        throw InputError(where + "unrecognized attribute '" + a->Name() + "'");
      }
    }
    if (e.FirstChildElement()) throw InputError(where + "<include> cannot have child elements");
    fs::path path(name);
    if (path.is_relative()) path = fs::path(base_dir_) / path;
    const std::string resolved = path.lexically_normal().string();
    if (!included_.insert(resolved).second) {
      throw InputError(where + "file '" + std::string(name) + "' is included more than once");
    }
    const std::string text = read_text_file(resolved, where);
    XmlElement root = load(text, resolved);
    if (root.children.empty()) {
      throw InputError(where + "included file '" + std::string(name) + "' adds no elements");
    }
    for (XmlElement& child : root.children) parent.children.push_back(std::move(child));
  }

  std::string base_dir_;
  bool expand_;
  std::set<std::string> included_;
};

}  // namespace

XmlElement load_xml(const std::string& text, const std::string& source, const std::string& base_dir,
                    bool expand_includes) {
  Loader loader(base_dir, expand_includes);
  return loader.load(text, source);
}

XmlElement load_xml_file(const std::string& path, bool expand_includes) {
  const std::string text = read_text_file(path, "");
  return load_xml(text, path, fs::path(path).parent_path().string(), expand_includes);
}

}  // namespace joco::compiler
