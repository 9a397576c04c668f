#include "common/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace joco::tools {
namespace {

TEST(JsonString, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(json_string("plain"), "\"plain\"");
  EXPECT_EQ(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(json_string("line\nnext\ttab"), "\"line\\nnext\\ttab\"");
  EXPECT_EQ(json_string(std::string("\x01") + "\x1f"), "\"\\u0001\\u001f\"");
  EXPECT_EQ(json_string("h\xc3\xa9"), "\"h\xc3\xa9\"");  // UTF-8 passes through
}

// The layout joco-fwdinv-check's report has always had: blocks indented two spaces a level,
// inline objects and arrays on one line, an empty block as [].
TEST(JsonWriter, BlockAndInlineLayout) {
  using Layout = JsonWriter::Layout;
  JsonWriter j;
  j.begin_object();
  j.key("tool").value("x");
  j.key("passed").value(false);
  j.key("cases").begin_array();
  j.begin_object();
  j.key("rows").value(size_t{3});
  j.key("stat").begin_object(Layout::kInline).key("worst").number(0.5).key("row").null();
  j.end_object();
  j.key("failing").begin_array();
  j.begin_object(Layout::kInline).key("pair").begin_array(Layout::kInline).value(1).value(2);
  j.end_array().end_object();
  j.end_array();
  j.key("none").begin_array().end_array();
  j.end_object();
  j.end_array();
  j.end_object();
  EXPECT_EQ(j.text(),
            "{\n"
            "  \"tool\": \"x\",\n"
            "  \"passed\": false,\n"
            "  \"cases\": [\n"
            "    {\n"
            "      \"rows\": 3,\n"
            "      \"stat\": {\"worst\": 0.5, \"row\": null},\n"
            "      \"failing\": [\n"
            "        {\"pair\": [1, 2]}\n"
            "      ],\n"
            "      \"none\": []\n"
            "    }\n"
            "  ]\n"
            "}\n");
}

TEST(JsonWriter, NumbersAsAskedAndNullWhenNotFinite) {
  using Layout = JsonWriter::Layout;
  JsonWriter j;
  j.begin_array(Layout::kInline);
  j.number(0.1);                                      // every bit
  j.number(1.0 / 3, 6);                               // %.6g
  j.number(0.002, 0);                                 // shortest
  j.number(std::numeric_limits<double>::infinity());  // JSON has no inf
  j.number(std::nan(""), 6);                          // nor nan
  j.value(int64_t{-7});
  j.end_array();
  EXPECT_EQ(j.text(), "[0.10000000000000001, 0.333333, 0.002, null, null, -7]\n");
}

TEST(XmlEscape, EntitiesAndNoControlCharacters) {
  EXPECT_EQ(xml_escape("a<b>&\"c\"'"), "a&lt;b&gt;&amp;&quot;c&quot;&apos;");
  EXPECT_EQ(xml_escape(std::string("x\x01y\nz\tw")), "xy\nz\tw");
}

TEST(JUnitReport, CountsFailuresAndSumsTimes) {
  JUnitCase pass{"suite.a", "a (pgs)", "a.xml", 0.25, std::nullopt, "all <good>"};
  JUnitCase fail{
      "suite.b", "b & c", "b.xml", 1.5, JUnitCase::Failure{"1 row(s) over", "threshold", "row 3\n"},
      "summary"};
  EXPECT_EQ(
      junit_report("suite", {pass, fail}),
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"suite\" tests=\"2\" failures=\"1\" errors=\"0\" time=\"1.750\">\n"
      "  <testsuite name=\"suite\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" "
      "time=\"1.750\">\n"
      "    <testcase classname=\"suite.a\" name=\"a (pgs)\" file=\"a.xml\" time=\"0.250\">\n"
      "      <system-out>all &lt;good&gt;</system-out>\n"
      "    </testcase>\n"
      "    <testcase classname=\"suite.b\" name=\"b &amp; c\" file=\"b.xml\" time=\"1.500\">\n"
      "      <failure message=\"1 row(s) over\" type=\"threshold\">row 3\n</failure>\n"
      "      <system-out>summary</system-out>\n"
      "    </testcase>\n"
      "  </testsuite>\n"
      "</testsuites>\n");
}

// A case that could not run is an <error>, counted in errors (which were written as 0 whatever
// the cases), apart from the failures.
TEST(JUnitReport, CountsErrorsApartFromFailures) {
  JUnitCase pass{"suite.a", "a", "a.xml", 0.5, std::nullopt, "", std::nullopt};
  JUnitCase fail{"suite.b", "b",         "b.xml", 0, JUnitCase::Failure{"over", "threshold", ""},
                 "",        std::nullopt};
  JUnitCase error{"suite.c",
                  "c",
                  "c.xml",
                  0,
                  std::nullopt,
                  "",
                  JUnitCase::Failure{"c.xml: cannot open", "bad input", "c.xml: cannot open"}};
  const std::string x = junit_report("suite", {pass, fail, error, error});
  const std::string counts = "tests=\"4\" failures=\"1\" errors=\"2\"";
  EXPECT_NE(x.find("<testsuites name=\"suite\" " + counts + " time=\"0.500\">"), std::string::npos)
      << x;
  EXPECT_NE(x.find("<testsuite name=\"suite\" " + counts + " skipped=\"0\""), std::string::npos)
      << x;
  EXPECT_NE(x.find("      <error message=\"c.xml: cannot open\" type=\"bad input\">c.xml: cannot "
                   "open</error>\n"
                   "      <system-out></system-out>\n"),
            std::string::npos)
      << x;
}

}  // namespace
}  // namespace joco::tools
