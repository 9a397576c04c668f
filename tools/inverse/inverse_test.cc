// joco-inverse, run as users run it: round trips from simulated rollouts (joco-simulate) with qvel
// and qacc dropped, invalid rows, batches, smoothing, pipes.
#include "joco/inverse.h"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "common/model_input.h"
#include "common/trajectory.h"
#include "joco/forward.h"
#include "joco/smooth.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kModels = JOCO_TESTDATA_DIR;

std::string model(const std::string& relative) { return kModels + "/" + relative; }

Matrix read(const std::string& file, Field f) {
  return TrajectoryInput::open(file).single().read(f);
}

std::string run_ok(const std::string& command) {
  const auto r = test::run(command);
  EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
  return r.err;
}

// A trajectory holding only some fields of another (qpos and time, say), as motion capture would.
void write_fields(const std::string& path, const Model& m, const std::vector<Field>& fields,
                  const std::string& source) {
  Trajectory t = TrajectoryInput::open(source).single();
  TrajectoryFileWriter file(path, m, {});
  TrajectoryWriter& w = file.trajectory();
  for (Field f : fields) w.append(f, t.read(f).data);
  file.commit();
}

double row_norm(const Matrix& x, size_t r) {
  double s = 0;
  for (size_t c = 0; c < x.cols; ++c) s += x(r, c) * x(r, c);
  return std::sqrt(s);
}

// The largest |a - b| of a row, relative to the row's norm of b (at least `floor`).
double row_error(const Matrix& a, const Matrix& b, size_t r, double floor = 1e-300) {
  double e = 0;
  for (size_t c = 0; c < a.cols; ++c) e = std::max(e, std::abs(a(r, c) - b(r, c)));
  return e / std::max(row_norm(b, r), floor);
}

// Euler rollouts with known controls; positions alone back through joco-inverse --discrete: the
// inverse forces are the actuator forces the rollout applied, at every row but the first and last
// (whose differences are one-sided). The models: contacts and joint damping (humanoid), every
// joint type, limits, friction loss, an equality (rig), muscles and tendons (arm26), a
// slider-crank.
TEST(JocoInverse, DiscreteRoundTripFromPositionsAlone) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  for (const std::string path :
       {"mujoco/model/humanoid/humanoid.xml", "inverse/rig.xml",
        "mujoco/model/tendon_arm/arm26.xml", "mujoco/model/slider_crank/slider_crank.xml"}) {
    SCOPED_TRACE(path);
    const Model m = load_model(model(path));
    ASSERT_EQ(m.opt.integrator, kIntEuler);
    run_ok("joco-simulate " + model(path) + " --steps 150 --ctrl-noise 0.3 --seed 3 -o " + dir +
           "/run.h5");
    write_fields(dir + "/qpos.h5", m, {Field::kTime, Field::kQpos}, dir + "/run.h5");
    run_ok("joco-inverse " + model(path) + " " + dir + "/qpos.h5 --discrete -o " + dir + "/inv.h5");
    const Matrix applied = read(dir + "/run.h5", Field::kQfrcActuator);
    const Matrix inverse = read(dir + "/inv.h5", Field::kQfrcInverse);
    ASSERT_EQ(applied.rows, inverse.rows);
    double worst = 0;
    for (size_t r = 1; r + 1 < applied.rows; ++r) {
      // relative to the row's actuator force, or the model's typical force when that vanishes
      worst = std::max(worst, row_error(inverse, applied, r, 1e-3));
    }
    std::printf("%s: discrete round trip, worst relative error %.2e over %zu interior rows\n",
                path.c_str(), worst, applied.rows - 2);
    EXPECT_LT(worst, 1e-8);
    // Where the actuators are affine in their controls, the least-squares controls are the ones
    // applied.
    Trajectory out = TrajectoryInput::open(dir + "/inv.h5").single();
    if (actuation_affine_in_control(m)) {
      const Matrix ctrl = read(dir + "/run.h5", Field::kCtrl);
      const Matrix estimate = out.read(Field::kCtrlEstimate);
      const Matrix residual = out.read(Field::kCtrlResidual);
      for (size_t r = 1; r + 1 < ctrl.rows; ++r) {
        for (size_t u = 0; u < ctrl.cols; ++u) ASSERT_NEAR(estimate(r, u), ctrl(r, u), 1e-6);
        EXPECT_LT(row_norm(residual, r), 1e-6 * std::max(1.0, row_norm(inverse, r)));
      }
    } else {
      EXPECT_FALSE(out.has(Field::kCtrlEstimate));
    }
    EXPECT_EQ(out.string_attribute("differences").value_or(""), "discrete");
  }
}

// Central differences of positions sampled from a smooth motion (an RK4 rollout of a chain with
// constant controls) carry the classic truncation errors, at the interior rows
//   v_cd - v = h^2/6 q''' + O(h^4),   a_cd - a = h^2/12 q'''' + O(h^4),
// and the inverse forces are off by what these errors of its inputs make of them. The test
// estimates q''' and q'''' from the rollout's exact accelerations (central differences of qacc),
// predicts the force error of every row by running the inverse with the inputs displaced by the
// predicted errors, and requires the measured error to be that prediction within 10% (plus a floor
// of rounding: positions rounded to 1e-16 make 4e-16/h^2 of acceleration, and 1e-3 of the largest
// predicted error).
TEST(JocoInverse, CentralDifferencesErrIsTheirTruncationError) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string path = model("inverse/chain.xml");
  const Model m = load_model(path);
  {
    // constant controls: one row, held
    TrajectoryFileWriter file(dir + "/ctrl.h5", m, {});
    TrajectoryWriter& w = file.trajectory();
    w.append(Field::kQpos, std::vector<double>(m.qpos0, m.qpos0 + m.nq));
    w.append(Field::kCtrl, std::vector<double>{0.8, -0.5, 0.3});
    file.commit();
  }
  run_ok("joco-simulate " + path + " --ctrl " + dir + "/ctrl.h5 --steps 800 -o " + dir + "/run.h5");
  write_fields(dir + "/qpos.h5", m, {Field::kTime, Field::kQpos}, dir + "/run.h5");
  run_ok("joco-inverse " + path + " " + dir + "/qpos.h5 -o " + dir + "/inv.h5");
  Trajectory run = TrajectoryInput::open(dir + "/run.h5").single();
  Trajectory inv = TrajectoryInput::open(dir + "/inv.h5").single();
  const Matrix qpos = run.read(Field::kQpos), qvel = run.read(Field::kQvel),
               qacc = run.read(Field::kQacc), applied = run.read(Field::kQfrcActuator),
               ctrl = run.read(Field::kCtrl);
  const Matrix force = inv.read(Field::kQfrcInverse), acc_cd = inv.read(Field::kQacc);
  EXPECT_EQ(inv.string_attribute("differences").value_or(""), "central");
  const double h = m.opt.timestep;
  const int nv = m.nv;
  Data d(m);
  std::vector<std::vector<double>> predicted, measured, acc_predicted, acc_measured;
  std::vector<double> acc_largest(nv, 0.0);
  double largest = 0, qmax = 0;
  for (double q : qpos.data) qmax = std::max(qmax, std::abs(q));
  for (size_t r = 2; r + 2 < qpos.rows; ++r) {
    std::vector<double> dv(nv), da(nv);
    for (int i = 0; i < nv; ++i) {
      const double jerk = (qacc(r + 1, i) - qacc(r - 1, i)) / (2 * h);
      const double snap = (qacc(r + 1, i) - 2 * qacc(r, i) + qacc(r - 1, i)) / (h * h);
      dv[i] = h * h / 6 * jerk;
      da[i] = h * h / 12 * snap;
    }
    // the inverse at the exact inputs and at the displaced ones
    std::vector<double> exact(nv), displaced(nv);
    for (int pass = 0; pass < 2; ++pass) {
      std::copy_n(qpos.row(r), m.nq, d.qpos);
      std::copy_n(ctrl.row(r), m.nu, d.ctrl);
      for (int i = 0; i < nv; ++i) {
        d.qvel[i] = qvel(r, i) + (pass ? dv[i] : 0);
        d.qacc[i] = qacc(r, i) + (pass ? da[i] : 0);
      }
      inverse(m, d);
      std::copy_n(d.qfrc_inverse, nv, pass ? displaced.begin() : exact.begin());
    }
    std::vector<double> p(nv), e(nv);
    for (int i = 0; i < nv; ++i) {
      p[i] = displaced[i] - exact[i];
      e[i] = force(r, i) - applied(r, i);
      largest = std::max(largest, std::abs(p[i]));
    }
    predicted.push_back(p);
    measured.push_back(e);
    acc_predicted.push_back(da);
    std::vector<double> ea(nv);
    for (int i = 0; i < nv; ++i) {
      ea[i] = acc_cd(r, i) - qacc(r, i);
      acc_largest[i] = std::max(acc_largest[i], std::abs(da[i]));
    }
    acc_measured.push_back(ea);
  }
  // The accelerations themselves, dof by dof (the floor: 1e-3 of the dof's largest predicted
  // error, for the next term of the expansion, h^4/360 q^(6), which shows near zeros of q^(4)).
  for (size_t k = 0; k < acc_predicted.size(); ++k) {
    for (int i = 0; i < nv; ++i) {
      const double p = acc_predicted[k][i];
      ASSERT_NEAR(acc_measured[k][i], p,
                  0.1 * std::abs(p) + 1e-3 * acc_largest[i] + 4e-16 * std::max(1.0, qmax) / (h * h))
          << "row " << k + 2 << " dof " << i;
    }
  }
  // M is at most ~1 here: 4e-16 |q| / h^2 of acceleration rounding is that much force.
  const double floor = 1e-3 * largest + 4e-16 * std::max(1.0, qmax) / (h * h);
  double worst_measured = 0, worst_excess = 0;
  for (size_t k = 0; k < predicted.size(); ++k) {
    for (int i = 0; i < nv; ++i) {
      const double excess =
          std::abs(measured[k][i] - predicted[k][i]) - (0.1 * std::abs(predicted[k][i]) + floor);
      worst_excess = std::max(worst_excess, excess);
      worst_measured = std::max(worst_measured, std::abs(measured[k][i]));
    }
  }
  std::printf("central differences at h = %g: worst force error %.3e, predicted at most %.3e\n", h,
              worst_measured, largest);
  EXPECT_LE(worst_excess, 0);
  EXPECT_GT(worst_measured, 10 * floor);  // the test measures a real error, not rounding
}

// Given qvel and qacc are used as they are: the continuous inverse of a rollout's own forward
// accelerations recovers its forces at every row, and the contact table carries the contact forces
// of forward dynamics at that state.
// Each row's inverse (continuous and discrete) depends on that row alone: the rows of a file with
// its velocities and accelerations given, in reverse order, give the same forces bit for bit.
// (Without the time dataset: reversed, it would not increase; the discrete step is the model's.)
TEST(JocoInverse, RowsDoNotDependOnTheRowsBefore) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string xml = model("mujoco/model/humanoid/humanoid.xml");
  run_ok("joco-simulate " + xml + " --steps 80 --ctrl-noise 0.4 --seed 5 -o " + dir + "/run.h5");
  test::write_rows(xml, dir + "/run.h5", dir + "/forward.h5", false, {Field::kTime});
  test::write_rows(xml, dir + "/run.h5", dir + "/reversed.h5", true, {Field::kTime});
  for (const std::string discrete : {"", " --discrete"}) {
    run_ok("joco-inverse " + xml + " " + dir + "/forward.h5" + discrete + " -o " + dir + "/a.h5");
    run_ok("joco-inverse " + xml + " " + dir + "/reversed.h5" + discrete + " -o " + dir + "/b.h5");
    run_ok("joco-inverse " + xml + " " + dir + "/forward.h5" + discrete + " --threads 3 -o " + dir +
           "/c.h5");
    const Matrix nefc = TrajectoryInput::open(dir + "/a.h5").single().read(Field::kNefc);
    double constrained = 0;
    for (double n : nefc.data) constrained += n > 0;
    EXPECT_GT(constrained, 40);
    for (Field f : {Field::kQfrcInverse, Field::kQfrcConstraint, Field::kQfrcBias,
                    Field::kCtrlEstimate, Field::kNefc}) {
      EXPECT_TRUE(test::same_rows(dir + "/a.h5", dir + "/b.h5", f, true)) << discrete;
      EXPECT_TRUE(test::same_rows(dir + "/a.h5", dir + "/c.h5", f, false)) << discrete;
    }
  }
}

TEST(JocoInverse, UsesGivenVelocitiesAndAccelerations) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string path = model("mujoco/model/humanoid/humanoid.xml");
  const Model m = load_model(path);
  run_ok("joco-simulate " + path + " --steps 120 --ctrl-noise 0.3 -o " + dir + "/run.h5");
  write_fields(dir + "/states.h5", m, {Field::kTime, Field::kQpos, Field::kQvel, Field::kQacc},
               dir + "/run.h5");
  run_ok("joco-inverse " + path + " " + dir + "/states.h5 --threads 2 -o " + dir + "/inv.h5");
  Trajectory out = TrajectoryInput::open(dir + "/inv.h5").single();
  const Matrix applied = read(dir + "/run.h5", Field::kQfrcActuator);
  const Matrix inverse = out.read(Field::kQfrcInverse);
  const Matrix qacc_in = read(dir + "/run.h5", Field::kQacc);
  EXPECT_EQ(out.read(Field::kQacc).data, qacc_in.data);
  EXPECT_EQ(out.string_attribute("differences").value_or(""), "given");
  for (size_t r = 0; r < applied.rows; ++r) {
    ASSERT_LT(row_error(inverse, applied, r, 1e-3), 1e-8) << "row " << r;
  }
  // Contacts: those of forward dynamics at each row's state, with forward's forces.
  const std::vector<ContactRecord> contacts = out.read_contacts();
  const Matrix qpos = read(dir + "/run.h5", Field::kQpos),
               qvel = read(dir + "/run.h5", Field::kQvel),
               ctrl = read(dir + "/run.h5", Field::kCtrl);
  ASSERT_FALSE(contacts.empty());
  Data d(m);
  size_t k = 0;
  int checked = 0;
  for (size_t r = 0; r < qpos.rows; ++r) {
    std::copy_n(qpos.row(r), m.nq, d.qpos);
    std::copy_n(qvel.row(r), m.nv, d.qvel);
    std::copy_n(ctrl.row(r), m.nu, d.ctrl);
    if (r > 0) std::copy_n(qacc_in.row(r - 1), m.nv, d.qacc_warmstart);
    forward(m, d);
    for (int i = 0; i < d.ncon; ++i, ++k) {
      ASSERT_LT(k, contacts.size());
      ASSERT_EQ(contacts[k].row, static_cast<int64_t>(r));
      EXPECT_EQ(contacts[k].geom1, d.contact[i].geom1);
      double f[6];
      contact_force(m, d, i, f);
      for (int j = 0; j < 6; ++j)
        EXPECT_NEAR(contacts[k].force[j], f[j], 1e-7 * (1 + std::abs(f[0])));
      ++checked;
    }
  }
  EXPECT_EQ(k, contacts.size());
  EXPECT_GT(checked, 10);
}

// Bad rows are named, every one of them, and nothing is written.
TEST(JocoInverse, RejectsInvalidRowsByNumber) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string path = model("mujoco/model/humanoid/humanoid.xml");
  const Model m = load_model(path);
  run_ok("joco-simulate " + path + " --steps 20 -o " + dir + "/run.h5");
  Matrix qpos = read(dir + "/run.h5", Field::kQpos);
  const Matrix time = read(dir + "/run.h5", Field::kTime);
  qpos.data[3 * qpos.cols + 10] = std::nan("");  // row 3: NaN
  for (int k = 3; k < 7; ++k)
    qpos.data[7 * qpos.cols + k] *= 1.5;  // row 7: the free joint's quaternion
  qpos.data[12 * qpos.cols + 3] += 1e-6;  // row 12: within the tolerance, normalised and used
  {
    TrajectoryFileWriter file(dir + "/bad.h5", m, {});
    file.trajectory().append(Field::kTime, time.data);
    file.trajectory().append(Field::kQpos, qpos.data);
    file.commit();
  }
  auto r = test::run("joco-inverse " + path + " " + dir + "/bad.h5 -o " + dir + "/out.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("2 invalid row(s)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("row 3: qpos column 10 is nan"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("row 7: the quaternion of joint 'root' has norm 1.5"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("row 12"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.h5"));
  // A trajectory of another model: the width is wrong.
  run_ok("joco-simulate " + model("mujoco/model/slider_crank/slider_crank.xml") + " --steps 5 -o " +
         dir + "/slider.h5");
  r = test::run("joco-inverse " + path + " " + dir + "/slider.h5 -o " + dir + "/out.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("slider.h5"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.h5"));
}

// Positions without time need --dt; too few rows for differences are an input error.
TEST(JocoInverse, TimeFromTheFileOrDt) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string path = model("mujoco/model/slider_crank/slider_crank.xml");
  const Model m = load_model(path);
  run_ok("joco-simulate " + path + " --steps 30 --ctrl-noise 0.5 -o " + dir + "/run.h5");
  write_fields(dir + "/q.h5", m, {Field::kQpos}, dir + "/run.h5");
  auto r = test::run("joco-inverse " + path + " " + dir + "/q.h5 -o " + dir + "/a.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--dt"), std::string::npos) << r.err;
  // A time that goes back is named as FILE:/time (it was FILE://time).
  {
    const hid_t f = H5Fcreate((dir + "/back.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const std::vector<double> qpos(3 * static_cast<size_t>(m.nq), 0.0), time = {0, 0.2, 0.1};
    const hsize_t qdims[2] = {3, static_cast<hsize_t>(m.nq)}, tdims[1] = {3};
    EXPECT_GE(H5LTmake_dataset_double(f, "qpos", 2, qdims, qpos.data()), 0);
    EXPECT_GE(H5LTmake_dataset_double(f, "time", 1, tdims, time.data()), 0);
    H5Fclose(f);
  }
  r = test::run("joco-inverse " + path + " " + dir + "/back.h5 -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("back.h5:/time: does not increase at row 2"), std::string::npos) << r.err;
  run_ok("joco-inverse " + path + " " + dir + "/q.h5 --dt " + std::to_string(m.opt.timestep) +
         " -o " + dir + "/a.h5");
  write_fields(dir + "/qt.h5", m, {Field::kTime, Field::kQpos}, dir + "/run.h5");
  run_ok("joco-inverse " + path + " " + dir + "/qt.h5 -o " + dir + "/b.h5");
  // (time accumulated step by step and t0 + r dt differ by rounding)
  const Matrix a = read(dir + "/a.h5", Field::kQfrcInverse);
  const Matrix b = read(dir + "/b.h5", Field::kQfrcInverse);
  ASSERT_EQ(a.rows, b.rows);
  for (size_t k = 0; k < a.rows; ++k) EXPECT_LT(row_error(a, b, k, 1e-3), 1e-9) << "row " << k;
  run_ok("joco-simulate " + path + " --steps 1 -o " + dir + "/two.h5");
  write_fields(dir + "/two_q.h5", m, {Field::kTime, Field::kQpos}, dir + "/two.h5");
  r = test::run("joco-inverse " + path + " " + dir + "/two_q.h5 -o " + dir + "/c.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("at least 3"), std::string::npos) << r.err;
}

// Batch files group by group, the same results with one thread or several, through pipes.
TEST(JocoInverse, BatchesThreadsAndPipes) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string path = model("inverse/rig.xml");
  run_ok("joco-simulate " + path + " --steps 40 --ctrl-noise 0.4 --batch 3 --threads 2 -o " + dir +
         "/batch.h5");
  run_ok("joco-inverse " + path + " " + dir + "/batch.h5 -o " + dir + "/one.h5");
  run_ok("joco-inverse " + path + " " + dir + "/batch.h5 --threads 2 -o " + dir + "/two.h5");
  TrajectoryInput one = TrajectoryInput::open(dir + "/one.h5");
  TrajectoryInput two = TrajectoryInput::open(dir + "/two.h5");
  ASSERT_EQ(one.rollout_groups().size(), 3u);
  for (const std::string& g : one.rollout_groups()) {
    const Matrix a = one.trajectory(g).read(Field::kQfrcInverse);
    EXPECT_EQ(a.rows, 41u);
    EXPECT_EQ(a.data, two.trajectory(g).read(Field::kQfrcInverse).data) << g;
  }
  // One group named on the command line keeps its name.
  run_ok("joco-inverse " + path + " " + dir + "/batch.h5:/rollout_00002 -o " + dir + "/g2.h5");
  TrajectoryInput g2 = TrajectoryInput::open(dir + "/g2.h5");
  ASSERT_EQ(g2.rollout_groups(), std::vector<std::string>{"/rollout_00002"});
  EXPECT_EQ(g2.trajectory("/rollout_00002").read(Field::kQfrcInverse).data,
            one.trajectory("/rollout_00002").read(Field::kQfrcInverse).data);
  // A single rollout through a pipe.
  const auto r = test::run("joco-simulate " + path + " --steps 10 -o - | joco-inverse " + path +
                           " - -o " + dir + "/piped.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/piped.h5").single().rows(), 11u);
}

// Smoothing: a Savitzky-Golay fit of noisy positions gives better accelerations than central
// differences of them (measured against the rollout's own accelerations).
TEST(JocoInverse, SmoothingNoisyCapture) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string path = model("inverse/chain.xml");
  const Model m = load_model(path);
  run_ok("joco-simulate " + path + " --steps 600 --ctrl-noise 0 -o " + dir + "/run.h5");
  Matrix qpos = read(dir + "/run.h5", Field::kQpos);
  const Matrix time = read(dir + "/run.h5", Field::kTime),
               qacc = read(dir + "/run.h5", Field::kQacc);
  uint64_t state = 12345;
  for (double& q : qpos.data) {  // +-1e-7 of uniform noise, a capture's quantisation
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    q += 2e-7 * (static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5);
  }
  {
    TrajectoryFileWriter file(dir + "/noisy.h5", m, {});
    file.trajectory().append(Field::kTime, time.data);
    file.trajectory().append(Field::kQpos, qpos.data);
    file.commit();
  }
  run_ok("joco-inverse " + path + " " + dir + "/noisy.h5 -o " + dir + "/central.h5");
  run_ok("joco-inverse " + path + " " + dir + "/noisy.h5 --smooth savgol:31:4 -o " + dir +
         "/smooth.h5");
  auto rms = [&](const Matrix& a) {
    double s = 0;
    size_t n = 0;
    for (size_t r = 30; r + 30 < a.rows; ++r) {
      for (size_t c = 0; c < a.cols; ++c, ++n) s += std::pow(a(r, c) - qacc(r, c), 2);
    }
    return std::sqrt(s / static_cast<double>(n));
  };
  const double central = rms(read(dir + "/central.h5", Field::kQacc));
  const double smooth = rms(read(dir + "/smooth.h5", Field::kQacc));
  std::printf("noisy capture: acceleration RMS error %.3e central, %.3e Savitzky-Golay 31:4\n",
              central, smooth);
  EXPECT_LT(smooth, 0.05 * central);
  EXPECT_EQ(TrajectoryInput::open(dir + "/smooth.h5").single().string_attribute("differences"),
            "savgol:31:4");
}

TEST(JocoInverse, UsageErrorsExitTwo) {
  const std::string path = model("inverse/rig.xml");
  EXPECT_EQ(test::run("joco-inverse").exit_code, 2);
  EXPECT_EQ(test::run("joco-inverse " + path).exit_code, 2);
  EXPECT_EQ(test::run("joco-inverse " + path + " x.h5 --smooth savgol:4:2").exit_code, 2);
  EXPECT_EQ(test::run("joco-inverse " + path + " x.h5 --smooth splines").exit_code, 2);
  EXPECT_EQ(test::run("joco-inverse " + path + " x.h5 --lowpass-style opensim").exit_code, 2);
  EXPECT_EQ(test::run("joco-inverse " + path + " x.h5 --discrete --smooth savgol:5:2").exit_code,
            2);
  EXPECT_EQ(test::run("joco-inverse " + path + " x.h5 --dt -1").exit_code, 2);
}

}  // namespace
}  // namespace joco::tools
