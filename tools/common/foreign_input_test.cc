// The tools on trajectory and controls files written by other programs: testdata/foreign holds
// files h5py wrote (scripts/make-foreign-testdata) for testdata/inverse/chain.xml, with string
// attributes where joco writes numbers, no joco attributes at all, extra datasets and float32 data.
// qpos (with time or --dt) is all a states file needs and ctrl all a controls file needs; what joco
// does not know is ignored, and a checksum that differs or cannot be compared is only a warning.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/model_input.h"
#include "common/trajectory.h"
#include "joco/jmb.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kTestdata = JOCO_TESTDATA_DIR;
const std::string kChain = kTestdata + "/inverse/chain.xml";

std::string foreign(const std::string& name) { return kTestdata + "/foreign/" + name; }

// Every tool that reads states, on one trajectory: exit 0 and one output row per input row.
void every_tool_reads(const std::string& states, size_t rows) {
  SCOPED_TRACE(states);
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-simulate " + kChain + " --evaluate " + states + " -o " + dir + "/e.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/e.h5").single().rows(), rows);
  r = test::run("joco-inverse " + kChain + " " + states + " -o " + dir + "/i.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/i.h5").single().rows(), rows);
  r = test::run("joco-fwdinv-check " + kChain + " --states " + states);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-derivatives " + kChain + " --states " + states + " --rows 0-3 -o " + dir +
                "/d.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/d.h5").single().rows(), 4u);
  r = test::run("joco-derivatives " + kChain + " --continuous --states " + states +
                " --rows 1 -o " + dir + "/c.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + kChain + " --init " + states + " --init-row 2 --steps 3 -o " +
                dir + "/s.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST(ForeignFiles, EveryToolReadsFilesWrittenByH5py) {
  // qpos as float32 and time; no attributes, no /model; extra datasets and an extra group.
  every_tool_reads(foreign("mocap_float32.h5"), 40);
  // A string model_checksum (refused with exit 3 before), a fixed-length model_name, sizes as
  // int32, float, a one-element array and a string, another program's format marks, a string array.
  every_tool_reads(foreign("foreign_attrs.h5"), 40);
  // joco's format marks with string checksums in a batch, and a /model group of another program.
  every_tool_reads(foreign("batch_strings.h5") + ":/rollout_00001", 30);
}

TEST(ForeignFiles, ValuesAreReadAsWritten) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-simulate " + kChain + " --evaluate " + foreign("foreign_attrs.h5") +
                     " -o " + dir + "/e.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The state columns are the file's (qvel was float32), converted to double.
  Trajectory in = TrajectoryInput::open(foreign("foreign_attrs.h5")).single();
  Trajectory out = TrajectoryInput::open(dir + "/e.h5").single();
  for (Field f : {Field::kTime, Field::kQpos, Field::kQvel, Field::kCtrl}) {
    EXPECT_EQ(out.read(f).data, in.read(f).data) << field_info(f).name;
  }
  const Matrix qvel = in.read(Field::kQvel);
  EXPECT_EQ(qvel(1, 0), static_cast<double>(static_cast<float>(qvel(1, 0))));  // was float32
  // The sizes that are numbers are compared; the one that is not (na = "zero") is ignored.
  EXPECT_NE(r.err.find("attribute na is \"zero\", not a number; ignored"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("model_checksum \"f00dfeed\" cannot be compared"), std::string::npos)
      << r.err;
  // /model of another program: names it can read, the rest ignored.
  const ModelInfo info = TrajectoryInput::open(foreign("batch_strings.h5")).model_info();
  EXPECT_EQ(info.joint_names, (std::vector<std::string>{"hinge1", "hinge2", "hinge3", "slide"}));
  EXPECT_TRUE(info.body_names.empty());
  EXPECT_FALSE(info.model_checksum.has_value());
}

// Rewrites the root attribute model_checksum of a copy of `file` as a string.
std::string with_string_checksum(const std::string& file, const std::string& dir,
                                 const std::string& value) {
  static int copies = 0;
  const std::string copy = dir + "/checksum_" + std::to_string(copies++) + ".h5";
  std::filesystem::copy_file(file, copy);
  const hid_t f = H5Fopen(copy.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  EXPECT_GE(f, 0);
  EXPECT_GE(H5Adelete_by_name(f, "/", "model_checksum", H5P_DEFAULT), 0);
  EXPECT_GE(H5LTset_attribute_string(f, "/", "model_checksum", value.c_str()), 0);
  H5Fclose(f);
  return copy;
}

TEST(ForeignFiles, AChecksumThatDiffersOrCannotBeComparedIsOnlyAWarning) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-simulate " + kChain + " --steps 5 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const uint64_t own = model_checksum(load_model(kChain));
  char hex[32];
  std::snprintf(hex, sizeof(hex), "0x%016llx", static_cast<unsigned long long>(own));
  // The model's own checksum as text (hexadecimal, or decimal) is compared: no warning.
  for (const std::string& same : {std::string(hex), std::to_string(own)}) {
    const std::string file = with_string_checksum(dir + "/run.h5", dir, same);
    r = test::run("joco-simulate " + kChain + " --evaluate " + file + " -o " + dir + "/e.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << same << ": " << r.err;
  }
  const std::string other = with_string_checksum(dir + "/run.h5", dir, "0x0000000000000001");
  const std::string text = with_string_checksum(dir + "/run.h5", dir, "model v2");
  for (const std::string& tool :
       {"joco-simulate " + kChain + " --evaluate ", "joco-inverse " + kChain + " ",
        "joco-fwdinv-check " + kChain + " --states ",
        "joco-derivatives " + kChain + " --states "}) {
    r = test::run(tool + other + " -o " + dir + "/out");
    EXPECT_EQ(r.exit_code, 0) << tool << r.err;
    EXPECT_NE(r.err.find("(checksum 0000000000000001), not for this one"), std::string::npos)
        << tool << r.err;
    r = test::run(tool + text + " -o " + dir + "/out");
    EXPECT_EQ(r.exit_code, 0) << tool << r.err;
    EXPECT_NE(r.err.find("model_checksum \"model v2\" cannot be compared"), std::string::npos)
        << tool << r.err;
  }
}

TEST(ForeignFiles, AControlsFileNeedsOnlyCtrl) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  // ctrl (float32) alone: refused before ("holds no trajectory (no qpos dataset ...)").
  auto r = test::run("joco-simulate " + kChain + " --ctrl " + foreign("controls_only.h5") + " -o " +
                     dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory run = TrajectoryInput::open(dir + "/run.h5").single();
  const Matrix given = TrajectoryInput::open(foreign("controls_only.h5"), TrajectoryUse::kControls)
                           .single()
                           .read(Field::kCtrl);
  EXPECT_EQ(run.rows(), 40u);  // the controls' rows - 1 steps
  EXPECT_EQ(run.read(Field::kCtrl).data, given.data);
  // As a states file it has no qpos, and a controls file without ctrl is refused for a model with
  // actuators.
  r = test::run("joco-simulate " + kChain + " --evaluate " + foreign("controls_only.h5"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("no qpos dataset"), std::string::npos) << r.err;
  r = test::run("joco-simulate " + kChain + " --ctrl " + foreign("mocap_float32.h5") + " -o " +
                dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("no 'ctrl' dataset, but the model has actuators"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace joco::tools
