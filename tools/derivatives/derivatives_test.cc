#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <string>

#include "common/trajectory.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kModels = JOCO_TESTDATA_DIR;

std::string model(const std::string& relative) { return kModels + "/" + relative; }

Trajectory open(const std::string& file) { return TrajectoryInput::open(file).single(); }

// A state's derivatives depend on its row alone: row 40 computed alone, after other rows, and
// among rows taken by three threads, bit for bit (transition and continuous).
TEST(JocoDerivatives, RowsDoNotDependOnTheRowsBefore) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string xml = model("mujoco/model/humanoid/humanoid.xml");
  auto r = test::run("joco-simulate " + xml + " --steps 60 --ctrl-noise 0.4 --seed 5 -o " + dir +
                     "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string kind : {"", " --continuous"}) {
    const std::string base = "joco-derivatives " + xml + kind + " --states " + dir + "/run.h5";
    r = test::run(base + " --rows 40 -o " + dir + "/alone.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run(base + " --rows 10-60:10 --threads 3 -o " + dir + "/among.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* name :
         kind.empty() ? std::vector<const char*>{"A", "B"}
                      : std::vector<const char*>{"dqacc_dqpos", "dqfrc_inverse_dqpos", "qDeriv"}) {
      const Matrix a = open(dir + "/alone.h5").read_extra(name);
      const Matrix b = open(dir + "/among.h5").read_extra(name);
      ASSERT_EQ(a.rows, 1u);
      ASSERT_EQ(b.rows, 6u);
      EXPECT_EQ(0, std::memcmp(a.row(0), b.row(3), a.cols * sizeof(double))) << name << kind;
    }
  }
}

// The damped slider of testdata/derivative (M = 2, k = 3, b = 0.5, gear 1.5, h = 0.01): its
// transition Jacobians have closed forms (see libengine/src/derivative/transition_fd_test.cc).
TEST(JocoDerivatives, InitialStateHasTheClosedForm) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r = test::run("joco-derivatives " + model("derivative/slider.xml") +
                           " --centered -o " + dir + "/d.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory t = open(dir + "/d.h5");
  EXPECT_EQ(t.rows(), 1u);
  std::vector<size_t> dims;
  const Matrix A = t.read_extra("A", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{1, 2, 2}));
  const Matrix B = t.read_extra("B", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{1, 2, 1}));
  const Matrix C = t.read_extra("C", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{1, 3, 2}));
  const Matrix D = t.read_extra("D", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{1, 3, 1}));
  const double M = 2, k = 3, b = 0.5, g = 1.5, h = 0.01, den = M + h * b;
  const double dv_dq = -h * k / den, dv_dv = 1 - h * b / den, dv_du = h * g / den;
  EXPECT_NEAR(A(0, 0), 1 + h * dv_dq, 1e-8);
  EXPECT_NEAR(A(0, 1), h * dv_dv, 1e-8);
  EXPECT_NEAR(A(0, 2), dv_dq, 1e-8);
  EXPECT_NEAR(A(0, 3), dv_dv, 1e-8);
  EXPECT_NEAR(B(0, 0), h * dv_du, 1e-8);
  EXPECT_NEAR(B(0, 1), dv_du, 1e-8);
  EXPECT_NEAR(C(0, 0), 1, 1e-8);  // jointpos / qpos
  EXPECT_NEAR(C(0, 3), 1, 1e-8);  // jointvel / qvel
  EXPECT_NEAR(D(0, 2), 1, 1e-8);  // actuatorfrc / ctrl
  EXPECT_EQ(t.string_attribute("derivatives").value_or(""), "transition");
  EXPECT_EQ(t.int_attribute("centered").value_or(-1), 1);
  EXPECT_TRUE(t.string_attribute("convention").has_value());
  EXPECT_EQ(t.dataset_string_attribute("A", "meaning").value_or(""), "dx'/dx: (2nv+na) x (2nv+na)");
}

// Rows of a trajectory, in parallel: the same numbers as one thread, in row order, with the states
// they were taken at.
TEST(JocoDerivatives, RowsOfATrajectoryInParallel) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string arm = model("mujoco/model/tendon_arm/arm26.xml");
  auto r = test::run("joco-simulate " + arm + " --steps 40 --ctrl-noise 0.5 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-derivatives " + arm + " --states " + dir +
                "/run.h5 --rows 3,10-20:5,40 --threads 3 -o " + dir + "/par.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-derivatives " + arm + " --states " + dir + "/run.h5 --rows 3,10-20:5,40 -o " +
                dir + "/seq.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory par = open(dir + "/par.h5"), seq = open(dir + "/seq.h5"), run = open(dir + "/run.h5");
  ASSERT_EQ(par.rows(), 5u);
  const Matrix rows = par.read_extra("source_row");
  EXPECT_EQ(rows.data, (std::vector<double>{3, 10, 15, 20, 40}));
  EXPECT_EQ(par.read_extra("A").data, seq.read_extra("A").data);
  EXPECT_EQ(par.read_extra("B").data, seq.read_extra("B").data);
  EXPECT_FALSE(par.has_extra("C"));  // no sensors
  const Matrix qpos = par.read(Field::kQpos), source = run.read(Field::kQpos);
  for (size_t k = 0; k < 5; ++k) {
    for (size_t j = 0; j < qpos.cols; ++j)
      EXPECT_EQ(qpos(k, j), source(static_cast<size_t>(rows.data[k]), j));
  }
  // A's act block: activation decays towards the control, 0 < d act'/d act < 1.
  const Matrix A = par.read_extra("A");
  const size_t nx = 2 * 2 + 6;
  for (size_t i = 4; i < nx; ++i) {
    EXPECT_GT(A(0, i * nx + i), 0.0);
    EXPECT_LT(A(0, i * nx + i), 1.0);
  }
}

TEST(JocoDerivatives, ContinuousWritesTheSixMatricesAndTheAccuracyCheck) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string humanoid = model("mujoco/model/humanoid/humanoid.xml");
  auto r = test::run("joco-simulate " + humanoid + " --steps 150 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-derivatives " + humanoid + " --continuous --states " + dir +
                "/run.h5 --rows 150 --threads 2 -o " + dir + "/c.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory t = open(dir + "/c.h5");
  EXPECT_EQ(t.string_attribute("derivatives").value_or(""), "continuous");
  std::vector<size_t> dims;
  for (const char* name : {"dqacc_dqpos", "dqacc_dqvel", "dqacc_dqfrc", "qDeriv"}) {
    t.read_extra(name, &dims);
    EXPECT_EQ(dims, (std::vector<size_t>{1, 27, 27})) << name;
  }
  EXPECT_NE(r.err.find("forward :"), std::string::npos) << r.err;
  for (const char* name : {"dqfrc_inverse_dqpos", "dqfrc_inverse_dqvel", "dqfrc_inverse_dqacc"}) {
    t.read_extra(name, &dims);
    EXPECT_EQ(dims, (std::vector<size_t>{1, 27, 27})) << name;
  }
  // The residuals that must vanish: inverse after forward is the identity.
  const Matrix accuracy = t.read_extra("accuracy", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{1, 8}));
  EXPECT_LT(accuracy(0, 0), -4) << "G2*F2 - I";
  EXPECT_LT(accuracy(0, 4), -4) << "G1 + G2*F1";
  EXPECT_NE(r.err.find("G2*F2 - I"), std::string::npos) << r.err;
}

TEST(JocoDerivatives, StreamsToStandardOutput) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r = test::run("joco-derivatives " + model("derivative/free_body.xml") + " -o - > " +
                           dir + "/out.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<size_t> dims;
  open(dir + "/out.h5").read_extra("A", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{1, 12, 12}));
  open(dir + "/out.h5").read_extra("B", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{1, 12, 0}));  // no actuators
}

TEST(JocoDerivatives, RefusesBadArguments) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string arm = model("mujoco/model/tendon_arm/arm26.xml");
  auto r = test::run("joco-simulate " + arm + " --steps 5 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-derivatives " + arm + " --states " + dir + "/run.h5 --rows 2-9 -o " + dir +
                "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("6 rows"), std::string::npos) << r.err;
  r = test::run("joco-derivatives " + arm + " --states " + dir + "/run.h5 --rows 4-x -o " + dir +
                "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = test::run("joco-derivatives " + arm + " --rows 1 -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = test::run("joco-derivatives " + arm + " --states " + model("derivative/slider.xml") + " -o " +
                dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  r = test::run("joco-derivatives " + arm + " --eps 0 -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(std::ifstream(dir + "/x.h5").good());
}

}  // namespace
}  // namespace joco::tools
