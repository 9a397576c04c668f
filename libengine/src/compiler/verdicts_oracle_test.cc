// joco compiles exactly the MJCF snippets MuJoCo 2.2.2 compiles, and rejects the rest: the cases of
// testdata/compiler/verdicts.txt, each found by probing both (lines starting with ~ are deliberate
// differences, and must stay different).
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

bool mujoco_compiles(const std::string& xml, std::string* error) {
  auto vfs = std::make_unique<mjVFS>();  // megabytes: not on the stack
  mj_defaultVFS(vfs.get());
  const char* name = "verdict.xml";
  mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size()));
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name)], xml.data(), xml.size());
  char buffer[1000] = "";
  mjModel* m = nullptr;
  try {
    m = mj_loadXML(name, vfs.get(), buffer, sizeof(buffer));
  } catch (const std::exception& e) {
    *error = e.what();
  }
  mj_deleteVFS(vfs.get());
  if (!m) {
    if (error->empty()) *error = buffer;
    return false;
  }
  mj_deleteModel(m);
  return true;
}

bool joco_compiles(const std::string& xml, std::string* error) {
  try {
    compile_mjcf(xml, "verdict.xml", test::testdata("skin"));
  } catch (const InputError& e) {
    *error = e.what();
    return false;
  }
  return true;
}

TEST(VerdictsOracle, JocoCompilesWhatMuJoCoCompiles) {
  std::ifstream in(test::testdata("compiler/verdicts.txt"));
  ASSERT_TRUE(in) << "cannot read compiler/verdicts.txt";
  std::string line;
  int cases = 0, deliberate = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t bar = line.find('|');
    ASSERT_NE(bar, std::string::npos) << line;
    const bool differs = line[0] == '~';
    const std::string name = line.substr(differs ? 1 : 0, bar - (differs ? 1 : 0));
    const std::string xml = "<mujoco>" + line.substr(bar + 1) + "</mujoco>";
    std::string mj_error, joco_error;
    const bool mj = mujoco_compiles(xml, &mj_error), joco = joco_compiles(xml, &joco_error);
    ++cases;
    oracle::count_compared();
    deliberate += differs;
    if (differs) {
      EXPECT_NE(mj, joco) << name << " was a deliberate difference, now both "
                          << (mj ? "compile" : "reject");
    } else {
      EXPECT_EQ(mj, joco) << name << ": MuJoCo " << (mj ? "compiles" : "rejects: " + mj_error)
                          << "; joco " << (joco ? "compiles" : "rejects: " + joco_error);
    }
  }
  std::cout << cases << " cases, " << deliberate << " deliberate differences\n";
  EXPECT_GT(cases, 125);
}

}  // namespace
}  // namespace joco
