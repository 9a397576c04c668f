// joco-simulate --set and --params: each against the same change made in the XML (identical
// trajectories), the values stored in each rollout's group, and the errors.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <fstream>
#include <string>
#include <vector>

#include "common/trajectory.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kCart = std::string(JOCO_TESTDATA_DIR) + "/params/cart.xml";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// cart.xml with each `from` replaced by `to`, written to `path` (beside nothing: it has no assets).
void write_edited(const std::string& path,
                  const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string xml = read_text(kCart);
  for (const auto& [from, to] : edits) {
    const size_t at = xml.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    xml.replace(at, from.size(), to);
  }
  write_text(path, xml);
}

// Every dataset a rollout records, bit for bit.
void expect_same_trajectory(const Trajectory& a, const Trajectory& b) {
  ASSERT_EQ(a.rows(), b.rows());
  int compared = 0;
  for (Field f : a.fields()) {
    if (!b.has(f)) continue;
    EXPECT_EQ(a.read(f).data, b.read(f).data) << field_info(f).name;
    ++compared;
  }
  EXPECT_GT(compared, 5);
}

const char* kRun = " --steps 200 --ctrl-noise 0.3 --seed 7";

// The masses and frictions of the sweep, and the XML that makes each.
const std::vector<std::pair<std::string, std::string>> kMasses = {
    {"1", "0.8 0.005 0.0001"}, {"2.5", "0.3 0.005 0.0001"}, {"4", "0.05 0.001 0.0001"}};
std::vector<std::pair<std::string, std::string>> edits(size_t i) {
  return {{R"(mass="1")", R"(mass=")" + kMasses[i].first + R"(")"},
          {R"(friction="1 0.005 0.0001")", R"(friction=")" + kMasses[i].second + R"(")"},
          {R"(<option )", R"(<option gravity="1 0 -9.81" )"}};
}

TEST(JocoSimulateSet, EqualsTheSameChangeInTheXml) {
  const test::TempDir temp;
  write_edited(temp / "edited.xml", edits(1));
  const auto xml =
      test::run("joco-simulate " + temp / "edited.xml" + kRun + " -o " + temp / "xml.h5");
  ASSERT_EQ(xml.exit_code, 0) << xml.err;
  const auto set = test::run("joco-simulate " + kCart + kRun +
                             " --set 'body_mass[cart]=2.5' --set opt.gravity='1 0 -9.81'"
                             " --set 'geom_friction[floor]=0.3 0.005 0.0001' -o " +
                             temp / "set.h5");
  ASSERT_EQ(set.exit_code, 0) << set.err;
  const Trajectory t = TrajectoryInput::open(temp / "set.h5").single();
  expect_same_trajectory(TrajectoryInput::open(temp / "xml.h5").single(), t);
  EXPECT_EQ(t.double_attribute("param:body_mass[cart]"), 2.5);
  // Without the change the trajectory differs.
  const auto base = test::run("joco-simulate " + kCart + kRun + " -o " + temp / "base.h5");
  ASSERT_EQ(base.exit_code, 0) << base.err;
  EXPECT_NE(TrajectoryInput::open(temp / "base.h5").single().read(Field::kQpos).data,
            t.read(Field::kQpos).data);
}

struct Column {
  const char* name;
  std::vector<double> values;
  std::vector<hsize_t> dims;
};

// An HDF5 parameter file as h5py writes one: a dataset per column.
void write_hdf5(const std::string& path, const std::vector<Column>& columns) {
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  for (const Column& c : columns) {
    const hid_t space = H5Screate_simple(static_cast<int>(c.dims.size()), c.dims.data(), nullptr);
    const hid_t d =
        H5Dcreate2(f, c.name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, c.values.data());
    H5Dclose(d);
    H5Sclose(space);
  }
  H5Fclose(f);
}

// The sweep's HDF5 parameter file.
void write_hdf5_params(const std::string& path) {
  write_hdf5(path, {{"body_mass[cart]", {1, 2.5, 4}, {3}},
                    {"geom_friction[floor]",
                     {0.8, 0.005, 0.0001, 0.3, 0.005, 0.0001, 0.05, 0.001, 0.0001},
                     {3, 3}},
                    {"opt.gravity", {1, 0, -9.81, 1, 0, -9.81, 1, 0, -9.81}, {3, 3}}});
}

// Rollout b of a --params batch equals a run of the XML with row b's values, on 1 or 2 threads,
// from a CSV or an HDF5 file; each group records its values.
TEST(JocoSimulateParams, EachRolloutEqualsItsRowMadeInTheXml) {
  const test::TempDir temp;
  std::string csv =
      "# a mass and friction sweep\nbody_mass[cart], geom_friction[floor], opt.gravity\n";
  for (const auto& [mass, friction] : kMasses) csv += mass + ",\"" + friction + "\",1 0 -9.81\n";
  write_text(temp / "sweep.csv", csv);
  write_hdf5_params(temp / "sweep.h5");
  for (size_t b = 0; b < kMasses.size(); ++b) {
    write_edited(temp / ("row" + std::to_string(b) + ".xml"), edits(b));
    const auto r = test::run("joco-simulate " + temp / ("row" + std::to_string(b) + ".xml") + kRun +
                             " -o " + temp / ("row" + std::to_string(b) + ".h5"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  for (const std::string run :
       {"sweep.csv --threads 1", "sweep.csv --threads 2", "sweep.h5 --threads 2"}) {
    SCOPED_TRACE(run);
    // The seed of rollout b is seed + b: the XML runs use --seed 7 + b.
    const auto r = test::run("joco-simulate " + kCart +
                             " --steps 200 --ctrl-noise 0.3 --seed 7 --batch 3 --params " +
                             temp / run + " -o " + temp / "batch.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    TrajectoryInput batch = TrajectoryInput::open(temp / "batch.h5");
    ASSERT_EQ(batch.rollout_groups().size(), 3u);
    for (size_t b = 0; b < kMasses.size(); ++b) {
      const Trajectory rollout = batch.trajectory(batch.rollout_groups()[b]);
      EXPECT_EQ(rollout.double_attribute("param:body_mass[cart]"), std::stod(kMasses[b].first));
      EXPECT_EQ(rollout.int_attribute("params_row"), static_cast<int64_t>(b));
      if (b == 0) {
        expect_same_trajectory(TrajectoryInput::open(temp / "row0.h5").single(), rollout);
      }
    }
  }
  // Rollouts 1 and 2 against their XML with the seed they ran with.
  for (size_t b = 1; b < kMasses.size(); ++b) {
    const std::string xml = temp / ("row" + std::to_string(b) + ".xml");
    const auto r = test::run("joco-simulate " + xml + " --steps 200 --ctrl-noise 0.3 --seed " +
                             std::to_string(7 + b) + " -o " + temp / "single.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    TrajectoryInput batch = TrajectoryInput::open(temp / "batch.h5");
    expect_same_trajectory(TrajectoryInput::open(temp / "single.h5").single(),
                           batch.trajectory(batch.rollout_groups()[b]));
  }
}

TEST(JocoSimulateParams, BadNamesValuesAndCountsAreUsageErrors) {
  const test::TempDir temp;
  write_text(temp / "bad_field.csv", "body_mas[cart]\n1\n");
  write_text(temp / "bad_element.csv", "body_mass[cartt]\n1\n");
  write_text(temp / "bad_count.csv", "geom_friction[floor]\n1 0\n");
  write_text(temp / "negative.csv", "body_mass[cart]\n1\n-1\n");
  write_text(temp / "two.csv", "body_mass[cart]\n1\n2\n");
  write_text(temp / "ragged.csv", "body_mass[cart],opt.timestep\n1\n");
  write_hdf5(temp / "bad_shape.h5", {{"geom_friction[floor]", {1, 2, 3, 4}, {2, 2}}});
  write_hdf5(temp / "bad_rows.h5",
             {{"body_mass[cart]", {1, 2}, {2}}, {"body_mass[pole]", {1, 2, 3}, {3}}});
  const std::string run = "joco-simulate " + kCart + " --steps 5 -o " + temp / "out.h5";
  struct Case {
    std::string args;
    int exit_code;
    std::vector<std::string> fragments;
  };
  const std::vector<Case> cases = {
      {"--set 'body_mas[cart]=1'", 2, {"--set", "body_mas", "no such Model field"}},
      {"--set 'geom_size[floor]=1 1 1'", 2, {"geom_size", "not recomputed"}},
      {"--set 'body_mass[cart]=-1'", 2, {"body_mass[cart]", "cannot be negative"}},
      {"--params " + temp / "bad_field.csv" + " --batch 1", 2, {"bad_field.csv", "body_mas"}},
      {"--params " + temp / "bad_element.csv", 2, {"bad_element.csv", "no body named 'cartt'"}},
      {"--params " + temp / "bad_count.csv", 2, {"geom_friction[floor]", "2 values given"}},
      {"--params " + temp / "negative.csv" + " --batch 2", 2, {"negative.csv row 1", "negative"}},
      {"--params " + temp / "two.csv" + " --batch 3", 2, {"two.csv has 2 rows", "--batch is 3"}},
      {"--params " + temp / "two.csv", 2, {"2 rows", "no --batch"}},
      {"--params " + temp / "ragged.csv", 3, {"ragged.csv line 2", "1 cells", "2 columns"}},
      {"--params " + temp / "missing.csv", 3, {"missing.csv", "cannot open"}},
      {"--params " + temp / "bad_shape.h5" + " --batch 2", 2, {"shape (2, 2)", "expected (B, 3)"}},
      {"--params " + temp / "bad_rows.h5" + " --batch 2", 3, {"3 rows", "has 2"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = test::run(run + " " + c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    for (const std::string& f : c.fragments) EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
  }
  // --params with --evaluate (without --steps, which --evaluate refuses too).
  const auto r = test::run("joco-simulate " + kCart + " -o " + temp / "out.h5" + " --params " +
                           temp / "two.csv" + " --evaluate " + temp / "out.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--params"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace joco::tools
