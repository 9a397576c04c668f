#include "common/trajectory.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "common/io.h"
#include "common/model_input.h"
#include "common/parallel.h"
#include "common/tool.h"
#include "joco/error.h"
#include "joco/jmb.h"
#include "support/errors.h"
#include "support/hand_models.h"
#include "support/test_support.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The pendulum with activations and two sensors added (na = 2, nsensordata = 5), so that every
// field has columns. Only what the trajectory module reads is filled in.
Model rich_model() {
  const Model base = joco::test::pendulum_model();
  ModelSizes s = base.sizes();
  s.na = 2;
  s.nsensor = 2;
  s.nsensordata = 5;
  const std::string extra = std::string("touch") + '\0' + "gyro" + '\0';
  s.nnames = base.nnames + static_cast<int>(extra.size());
  Model m(s);
  // Copy every array that has the same name and size in both.
  const std::vector<ArrayField> from = base.arrays(), to = m.arrays();
  for (size_t i = 0; i < to.size(); ++i) {
    if (from[i].bytes() == to[i].bytes() && from[i].bytes() > 0) {
      std::memcpy(to[i].data, from[i].data, from[i].bytes());
    }
  }
  std::memcpy(m.names, base.names, base.nnames);
  std::memcpy(m.names + base.nnames, extra.data(), extra.size());
  m.name_sensoradr[0] = base.nnames;
  m.name_sensoradr[1] = base.nnames + 6;
  m.sensor_dim[0] = 2;
  m.sensor_dim[1] = 3;
  m.sensor_adr[0] = 0;
  m.sensor_adr[1] = 2;
  m.opt = base.opt;
  m.opt.timestep = 0.004;
  return m;
}

// A value that identifies field, row and column, so that any mix-up shows.
double value_of(Field f, size_t row, size_t col) {
  const FieldInfo& info = field_info(f);
  if (info.integer) return static_cast<double>(static_cast<int>(f) * 100 + row * 3 + col);
  return static_cast<int>(f) * 1000.0 + row * 10.0 + col * 0.125 + 0.5;
}

std::vector<double> rows_of(Field f, const ModelSizes& s, size_t first, size_t count) {
  const size_t n = field_row_size(f, s);
  std::vector<double> v;
  for (size_t r = first; r < first + count; ++r) {
    for (size_t c = 0; c < n; ++c) v.push_back(value_of(f, r, c));
  }
  return v;
}

ContactRecord contact_of(int64_t row, int k) {
  ContactRecord c;
  c.row = row;
  c.geom1 = 1 + k % 3;
  c.geom2 = 0;
  for (int i = 0; i < 3; ++i) c.pos[i] = row + 0.1 * i + k;
  for (int i = 0; i < 9; ++i) c.frame[i] = -row - 0.01 * i - k;
  c.dist = -0.001 * (row + 1) * (k + 1);
  for (int i = 0; i < 6; ++i) c.force[i] = 1000.0 * row + i + 7 * k;
  return c;
}

void expect_contact_eq(const ContactRecord& a, const ContactRecord& b) {
  EXPECT_EQ(a.row, b.row);
  EXPECT_EQ(a.geom1, b.geom1);
  EXPECT_EQ(a.geom2, b.geom2);
  EXPECT_EQ(std::vector<double>(a.pos, a.pos + 3), std::vector<double>(b.pos, b.pos + 3));
  EXPECT_EQ(std::vector<double>(a.frame, a.frame + 9), std::vector<double>(b.frame, b.frame + 9));
  EXPECT_EQ(a.dist, b.dist);
  EXPECT_EQ(std::vector<double>(a.force, a.force + 6), std::vector<double>(b.force, b.force + 6));
}

WriterOptions options(size_t chunk_rows = 0, int deflate_level = 0) {
  WriterOptions o;
  o.deflate_level = deflate_level;
  o.model_name = "rich pendulum";
  o.creator = "trajectory_test 1.0";
  o.command = "trajectory_test --all";
  o.chunk_rows = chunk_rows;
  return o;
}

// Writes `rows` rows of every field (and two contacts per odd row) to a trajectory.
void write_all_fields(TrajectoryWriter& w, const ModelSizes& s, size_t rows) {
  for (const FieldInfo& info : field_table()) w.append(info.field, rows_of(info.field, s, 0, rows));
  for (size_t r = 1; r < rows; r += 2) {
    const ContactRecord c[] = {contact_of(static_cast<int64_t>(r), 0),
                               contact_of(static_cast<int64_t>(r), 1)};
    w.append_contacts(c);
  }
}

using joco::test::input_error;

// Plain HDF5 handles for the tests that check files without the module.
struct Id {
  hid_t id;
  herr_t (*close)(hid_t);
  Id(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) { EXPECT_GE(i, 0); }
  ~Id() {
    if (id >= 0) close(id);
  }
  operator hid_t() const { return id; }
};

class TrajectoryTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

  // A file written with the plain HDF5 API: qpos (T x 9) and whatever `extra` adds to the root.
  template <class Extra>
  std::string foreign_file(const std::string& name, size_t rows, Extra&& extra) {
    const std::string p = path(name);
    Id f(H5Fcreate(p.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    std::vector<double> qpos(rows * 9);
    for (size_t i = 0; i < qpos.size(); ++i) qpos[i] = 0.01 * i;
    const hsize_t dims[] = {rows, 9};
    EXPECT_GE(H5LTmake_dataset_double(f, "qpos", 2, dims, qpos.data()), 0);
    extra(f.id);
    return p;
  }

  const test::TempDir temp_;
  const std::string dir_ = temp_.path();
};

TEST(TrajectoryFields, TableFollowsTheSpecification) {
  const Model m = joco::test::pendulum_model();  // nq 9, nv 8, na 0, nu 1, nbody 4
  EXPECT_EQ(field_table().size(), static_cast<size_t>(kFieldCount));
  const char* names[] = {"time",          "qpos",         "qvel",           "act",
                         "ctrl",          "qacc",         "qacc_warmstart", "sensordata",
                         "qfrc_applied",  "xfrc_applied", "qfrc_inverse",   "qfrc_constraint",
                         "qfrc_actuator", "qfrc_bias",    "ncon",           "nefc",
                         "solver_niter",  "fwdinv",       "ctrl_estimate",  "ctrl_residual",
                         "inverse_flags"};
  static_assert(std::size(names) == kFieldCount);
  for (int i = 0; i < kFieldCount; ++i) {
    EXPECT_STREQ(field_table()[i].name, names[i]);
    EXPECT_EQ(field_by_name(names[i]), static_cast<Field>(i));
  }
  EXPECT_FALSE(field_by_name("contact").has_value());
  EXPECT_EQ(field_row_shape(Field::kTime, m), std::vector<size_t>{});
  EXPECT_EQ(field_row_shape(Field::kQpos, m), std::vector<size_t>{9});
  EXPECT_EQ(field_row_shape(Field::kQfrcBias, m), std::vector<size_t>{8});
  EXPECT_EQ(field_row_size(Field::kAct, m), 0u);
  EXPECT_EQ(field_row_shape(Field::kXfrcApplied, m), (std::vector<size_t>{4, 6}));
  EXPECT_EQ(field_row_size(Field::kFwdinv, m), 2u);
  EXPECT_EQ(rollout_group(7), "/rollout_00007");
  EXPECT_EQ(rollout_group(123456), "/rollout_123456");
  EXPECT_EQ(rollout_index("rollout_00042"), 42);
  EXPECT_FALSE(rollout_index("rollout_").has_value());
  EXPECT_FALSE(rollout_index("rollout_4x").has_value());
  EXPECT_FALSE(rollout_index("model").has_value());
}

// The table's last column: where a Data holds each field (what append_row writes).
TEST(TrajectoryFields, DataColumnNamesTheDataMember) {
  const Model m = joco::test::pendulum_model();
  Data d(m);
  d.time = 1.5;
  d.ncon = 3;
  d.nefc = 7;
  d.solver_iter = 11;
  double scalar = 0;
  const std::pair<Field, const double*> arrays[] = {{Field::kQpos, d.qpos},
                                                    {Field::kQvel, d.qvel},
                                                    {Field::kAct, d.act},
                                                    {Field::kCtrl, d.ctrl},
                                                    {Field::kQacc, d.qacc},
                                                    {Field::kQaccWarmstart, d.qacc_warmstart},
                                                    {Field::kSensordata, d.sensordata},
                                                    {Field::kQfrcApplied, d.qfrc_applied},
                                                    {Field::kXfrcApplied, d.xfrc_applied},
                                                    {Field::kQfrcInverse, d.qfrc_inverse},
                                                    {Field::kQfrcConstraint, d.qfrc_constraint},
                                                    {Field::kQfrcActuator, d.qfrc_actuator},
                                                    {Field::kQfrcBias, d.qfrc_bias},
                                                    {Field::kFwdinv, d.solver_fwdinv}};
  for (const auto& [f, p] : arrays) EXPECT_EQ(field_row(d, f, scalar), p) << field_info(f).name;
  const std::pair<Field, double> scalars[] = {
      {Field::kTime, 1.5}, {Field::kNcon, 3}, {Field::kNefc, 7}, {Field::kSolverNiter, 11}};
  for (const auto& [f, v] : scalars) {
    EXPECT_EQ(field_row(d, f, scalar), &scalar) << field_info(f).name;
    EXPECT_EQ(scalar, v) << field_info(f).name;
  }
  EXPECT_EQ(field_row(d, Field::kCtrlEstimate, scalar), nullptr);
  EXPECT_EQ(field_row(d, Field::kCtrlResidual, scalar), nullptr);
  EXPECT_EQ(field_row(d, Field::kInverseFlags, scalar), nullptr);
  EXPECT_EQ(std::size(arrays) + std::size(scalars) + 3, static_cast<size_t>(kFieldCount));
}

TEST_F(TrajectoryTest, RoundTripsEveryDatasetAndAttribute) {
  const Model m = rich_model();
  const std::string p = path("all.h5");
  constexpr size_t kRows = 6;
  {
    TrajectoryFileWriter file(p, m, options());
    TrajectoryWriter& w = file.trajectory();
    write_all_fields(w, m, kRows);
    w.set_attribute("seed", int64_t{42});
    w.set_attribute("ctrl_noise", 0.25);
    w.set_attribute("note", "extra");
    EXPECT_EQ(w.rows(Field::kQpos), kRows);
    EXPECT_EQ(w.group(), "/");
    file.commit();
  }
  const TrajectoryInput in = TrajectoryInput::open(p);
  EXPECT_EQ(in.trajectory_groups(), std::vector<std::string>{"/"});
  EXPECT_TRUE(in.rollout_groups().empty());
  Trajectory t = in.single();
  t.validate(m, {Field::kTime, Field::kQpos, Field::kQvel, Field::kAct, Field::kCtrl});
  EXPECT_EQ(t.rows(), kRows);
  EXPECT_EQ(t.where(), p + ":/");
  ASSERT_EQ(t.fields().size(), static_cast<size_t>(kFieldCount));
  for (const FieldInfo& info : field_table()) {
    SCOPED_TRACE(info.name);
    ASSERT_TRUE(t.has(info.field));
    const Matrix data = t.read(info.field);
    EXPECT_EQ(data.rows, kRows);
    EXPECT_EQ(data.cols, field_row_size(info.field, m));
    EXPECT_EQ(data.data, rows_of(info.field, m, 0, kRows));
  }
  EXPECT_EQ(t.dims(Field::kXfrcApplied), (std::vector<size_t>{kRows, 4, 6}));
  EXPECT_EQ(t.dims(Field::kTime), std::vector<size_t>{kRows});
  EXPECT_EQ(t.dims(Field::kSensordata), (std::vector<size_t>{kRows, 5}));

  EXPECT_EQ(t.string_attribute("format"), "joco.trajectory");
  EXPECT_EQ(t.int_attribute("format_version"), 1);
  EXPECT_EQ(t.string_attribute("model_name"), "rich pendulum");
  EXPECT_EQ(static_cast<uint64_t>(*t.int_attribute("model_checksum")), model_checksum(m));
  EXPECT_EQ(t.double_attribute("timestep"), 0.004);
  EXPECT_EQ(t.int_attribute("nq"), 9);
  EXPECT_EQ(t.int_attribute("nv"), 8);
  EXPECT_EQ(t.int_attribute("na"), 2);
  EXPECT_EQ(t.int_attribute("nu"), 1);
  EXPECT_EQ(t.int_attribute("nsensordata"), 5);
  EXPECT_EQ(t.string_attribute("creator"), "trajectory_test 1.0");
  EXPECT_EQ(t.string_attribute("command"), "trajectory_test --all");
  EXPECT_EQ(t.int_attribute("seed"), 42);
  EXPECT_EQ(t.double_attribute("ctrl_noise"), 0.25);
  EXPECT_EQ(t.string_attribute("note"), "extra");
  EXPECT_FALSE(t.string_attribute("absent").has_value());
  EXPECT_THAT(input_error([&] { (void)t.int_attribute("format"); }),
              HasSubstr(p + ":/: attribute format is not an integer"));

  ASSERT_TRUE(t.has_contacts());
  const std::vector<ContactRecord> contacts = t.read_contacts();
  ASSERT_EQ(contacts.size(), 2 * (kRows / 2));
  for (size_t i = 0; i < contacts.size(); ++i) {
    expect_contact_eq(contacts[i],
                      contact_of(static_cast<int64_t>(1 + 2 * (i / 2)), static_cast<int>(i % 2)));
  }

  const ModelInfo info = in.model_info();
  EXPECT_EQ(info.model_name, "rich pendulum");
  EXPECT_EQ(info.model_checksum, model_checksum(m));
  EXPECT_THAT(info.body_names, ElementsAre("world", "link1", "link2", "box"));
  EXPECT_THAT(info.joint_names, ElementsAre("hinge1", "hinge2", "free"));
  EXPECT_THAT(info.geom_names, ElementsAre("floor", "rod1", "rod2", "cube"));
  EXPECT_THAT(info.actuator_names, ElementsAre("motor"));
  EXPECT_THAT(info.sensor_names, ElementsAre("touch", "gyro"));
}

TEST_F(TrajectoryTest, AppendsAcrossChunkBoundariesAndReadsRowRanges) {
  const Model m = joco::test::pendulum_model();
  Data d(m);
  const std::string p = path("chunks.h5");
  constexpr size_t kChunk = 4;
  size_t rows = 0;
  {
    TrajectoryFileWriter file(p, m, options(kChunk));
    TrajectoryWriter& w = file.trajectory();
    // Row by row from a Data, then a block of 7 rows at once, then single rows again.
    for (; rows < 3; ++rows) {
      d.time = value_of(Field::kTime, rows, 0);
      for (int i = 0; i < m.nq; ++i) d.qpos[i] = value_of(Field::kQpos, rows, i);
      for (int i = 0; i < m.nv; ++i) d.qvel[i] = value_of(Field::kQvel, rows, i);
      d.ctrl[0] = value_of(Field::kCtrl, rows, 0);
      d.ncon = static_cast<int>(value_of(Field::kNcon, rows, 0));
      d.solver_fwdinv[0] = value_of(Field::kFwdinv, rows, 0);
      d.solver_fwdinv[1] = value_of(Field::kFwdinv, rows, 1);
      w.append_row(d, {Field::kTime, Field::kQpos, Field::kQvel, Field::kAct, Field::kCtrl,
                       Field::kNcon, Field::kFwdinv});
    }
    for (Field f :
         {Field::kTime, Field::kQpos, Field::kQvel, Field::kCtrl, Field::kNcon, Field::kFwdinv}) {
      w.append(f, rows_of(f, m, rows, 7));
    }
    w.append(Field::kAct, std::span<const double>(), 7);  // zero wide: rows are counted
    // Without a row count, rows of a zero-wide field cannot be told from its (no) values.
    EXPECT_THROW(w.append(Field::kAct, std::span<const double>()), std::invalid_argument);
    rows += 7;
    for (; rows < 13; ++rows) {
      for (Field f :
           {Field::kTime, Field::kQpos, Field::kQvel, Field::kCtrl, Field::kNcon, Field::kFwdinv}) {
        w.append(f, rows_of(f, m, rows, 1));
      }
      w.append(Field::kAct, std::span<const double>(), 1);
    }
    EXPECT_EQ(w.rows(Field::kQvel), 13u);
    EXPECT_EQ(w.rows(Field::kAct), 13u);
    file.commit();
  }
  Trajectory t = TrajectoryInput::open(p).single();
  t.validate(m, {Field::kQpos, Field::kQvel, Field::kAct});  // act is zero wide: present
  EXPECT_EQ(t.rows(), 13u);
  EXPECT_FALSE(t.has(Field::kAct));  // not stored when na = 0
  EXPECT_FALSE(t.has(Field::kQacc));
  for (Field f :
       {Field::kTime, Field::kQpos, Field::kQvel, Field::kCtrl, Field::kNcon, Field::kFwdinv}) {
    SCOPED_TRACE(field_info(f).name);
    EXPECT_EQ(t.read(f).data, rows_of(f, m, 0, 13));
    // Ranges inside one chunk, across chunk boundaries, and the partial last chunk.
    for (auto [first, count] :
         {std::pair<size_t, size_t>{1, 2}, {3, 6}, {2, 11}, {12, 1}, {13, 0}}) {
      const Matrix part = t.read(f, first, count);
      EXPECT_EQ(part.rows, count);
      EXPECT_EQ(part.data, rows_of(f, m, first, count));
    }
  }
  const Matrix act = t.read(Field::kAct);
  EXPECT_EQ(act.rows, 13u);
  EXPECT_EQ(act.cols, 0u);
  std::vector<double> out(4 * 9);
  t.read_into(Field::kQpos, 9, 4, out);
  EXPECT_EQ(out, rows_of(Field::kQpos, m, 9, 4));
  EXPECT_THAT(input_error([&] { (void)t.read(Field::kQpos, 10, 4); }),
              HasSubstr(p + ":/qpos: rows 10 to 14 asked for, it has 13"));

  // The chunks are kChunk rows, as asked.
  Id f(H5Fopen(p.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  Id ds(H5Dopen2(f, "qvel", H5P_DEFAULT), H5Dclose);
  Id dcpl(H5Dget_create_plist(ds), H5Pclose);
  hsize_t chunk[2] = {};
  ASSERT_EQ(H5Pget_chunk(dcpl, 2, chunk), 2);
  EXPECT_EQ(chunk[0], kChunk);
  EXPECT_EQ(chunk[1], 8u);
}

TEST_F(TrajectoryTest, BatchFileHoldsOneGroupPerRollout) {
  const Model m = rich_model();
  const std::string p = path("batch.h5");
  const size_t lengths[] = {3, 9, 1};
  {
    TrajectoryFileWriter file(p, m, options(2));
    // Several rollouts open at once, made out of order.
    for (int r : {2, 0, 1}) {
      TrajectoryWriter& w = file.rollout(r);
      EXPECT_EQ(w.group(), rollout_group(r));
      w.set_attribute("rollout", int64_t{r});
    }
    for (int r = 0; r < 3; ++r) {
      TrajectoryWriter& w = file.rollout(r);
      for (Field f : {Field::kTime, Field::kQpos, Field::kQvel}) {
        std::vector<double> v = rows_of(f, m, 0, lengths[r]);
        for (double& x : v) x += 0.0625 * r;
        w.append(f, v);
      }
    }
    file.rollout(1).close();
    EXPECT_TRUE(file.rollout(1).closed());
    EXPECT_THROW(file.trajectory(), std::logic_error);
    file.commit();
  }
  const TrajectoryInput in = TrajectoryInput::open(p);
  const std::vector<std::string> expected = {"/rollout_00000", "/rollout_00001", "/rollout_00002"};
  EXPECT_EQ(in.rollout_groups(), expected);
  EXPECT_EQ(in.trajectory_groups(), expected);
  EXPECT_THAT(input_error([&] { (void)in.single(); }),
              HasSubstr(p + ": holds 3 rollouts; name one, e.g. " + p + ":/rollout_00000"));
  EXPECT_THAT(input_error([&] { (void)in.trajectory("/"); }),
              HasSubstr(p + ":/: not a trajectory: no dataset qpos"));
  for (int r = 0; r < 3; ++r) {
    Trajectory t = in.trajectory(expected[r]);
    t.validate(m, {Field::kTime, Field::kQpos, Field::kQvel});
    EXPECT_EQ(t.rows(), lengths[r]);
    EXPECT_EQ(t.int_attribute("rollout"), r);
    std::vector<double> v = rows_of(Field::kQvel, m, 0, lengths[r]);
    for (double& x : v) x += 0.0625 * r;
    EXPECT_EQ(t.read(Field::kQvel).data, v);
    EXPECT_THAT(t.fields(), ElementsAre(Field::kTime, Field::kQpos, Field::kQvel));
  }
  // One /model for the whole file.
  EXPECT_THAT(in.model_info().joint_names, ElementsAre("hinge1", "hinge2", "free"));
}

// The reader and the writer take the model's checksum from model_checksum_once, which hashes a
// model's content once: it must follow every change of the model, options and arrays alike.
TEST(ModelChecksumOnce, FollowsTheModel) {
  Model m = rich_model();
  const uint64_t original = model_checksum(m);
  EXPECT_EQ(model_checksum_once(m), original);
  EXPECT_EQ(model_checksum_once(m), original);  // remembered
  m.opt.timestep *= 2;
  EXPECT_EQ(model_checksum_once(m), model_checksum(m));
  EXPECT_NE(model_checksum_once(m), original);
  m.opt.timestep /= 2;
  m.body_mass[1] += 1;
  EXPECT_EQ(model_checksum_once(m), model_checksum(m));
  EXPECT_NE(model_checksum_once(m), original);
  m.body_mass[1] -= 1;
  EXPECT_EQ(model_checksum_once(m), original);
  const Model copy = m;  // another buffer, the same content
  EXPECT_EQ(model_checksum_once(copy), original);
}

// The writer compresses chunks itself (so that threads compress in parallel) and stores them with
// H5Dwrite_chunk: every chunk, the partial last one and the integer columns included, must read
// back through HDF5's own shuffle and deflate filters (not skipped: filter mask 0) as the values.
TEST_F(TrajectoryTest, ChunksReadBackThroughHdf5sOwnFilters) {
  const Model m = rich_model();
  constexpr size_t kChunk = 4, kRows = 11;  // two whole chunks and a partial one
  const std::string ours = path("ours.h5");
  {
    TrajectoryFileWriter file(ours, m, options(kChunk, 1));
    write_all_fields(file.trajectory(), m, kRows);
    file.commit();
  }
  size_t compared = 0;
  Id a(H5Fopen(ours.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  for (Field f : {Field::kQvel, Field::kXfrcApplied, Field::kNcon, Field::kTime}) {
    const char* name = field_info(f).name;
    SCOPED_TRACE(name);
    Id ds(H5Dopen2(a.id, name, H5P_DEFAULT), H5Dclose);
    const std::vector<double> values = rows_of(f, m, 0, kRows);
    std::vector<double> read(values.size());
    ASSERT_GE(H5Dread(ds.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, read.data()), 0);
    EXPECT_EQ(read, values);
    Id space(H5Dget_space(ds.id), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.id);
    for (hsize_t first = 0; first < kRows; first += kChunk) {
      std::vector<hsize_t> offset(static_cast<size_t>(rank), 0);
      offset[0] = first;
      hsize_t size = 0;
      ASSERT_GE(H5Dget_chunk_storage_size(ds.id, offset.data(), &size), 0);
      std::vector<unsigned char> bytes(size);
      uint32_t mask = 1;
      ASSERT_GE(H5Dread_chunk(ds.id, H5P_DEFAULT, offset.data(), &mask, bytes.data()), 0);
      EXPECT_EQ(mask, 0u) << "chunk at row " << first;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 12u);
}

// Byte planes of nearly uniform bytes (the low mantissa bytes of noisy values) are stored, not
// deflated: the chunks are no larger than those of HDF5's own filters with the same settings
// (within 1%), and read back through them as the values.
TEST_F(TrajectoryTest, UniformBytePlanesCostNoSpace) {
  const Model m = rich_model();
  constexpr size_t kWidth = 1024, kRows = 40;  // 8 rows a chunk of 64 KiB: five chunks
  std::vector<double> noise(kWidth * kRows);
  uint64_t state = 12345;
  for (double& x : noise) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;  // in [-0.5, 0.5)
  }
  for (size_t i = 0; i < noise.size(); i += 7) noise[i] = 0;  // and some runs of zero bytes
  const std::string ours = path("noise.h5"), theirs = path("noise_hdf5.h5");
  {
    TrajectoryFileWriter file(ours, m, options(0, 1));
    TrajectoryWriter& w = file.trajectory();
    w.append(Field::kQpos, rows_of(Field::kQpos, m, 0, kRows));
    w.append_extra("noise", {kWidth}, noise);
    file.commit();
  }
  Id a(H5Fopen(ours.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  Id b(H5Fcreate(theirs.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  Id ds(H5Dopen2(a.id, "noise", H5P_DEFAULT), H5Dclose);
  std::vector<double> read(noise.size());
  ASSERT_GE(H5Dread(ds.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, read.data()), 0);
  EXPECT_EQ(read, noise);
  // The same dataset, written through HDF5's filter pipeline with its creation properties.
  Id dcpl(H5Dget_create_plist(ds.id), H5Pclose);
  Id space(H5Dget_space(ds.id), H5Sclose);
  Id copy(H5Dcreate2(b.id, "noise", H5T_IEEE_F64LE, space.id, H5P_DEFAULT, dcpl.id, H5P_DEFAULT),
          H5Dclose);
  ASSERT_GE(H5Dwrite(copy.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, noise.data()), 0);
  ASSERT_GE(H5Fflush(b.id, H5F_SCOPE_GLOBAL), 0);
  size_t compared = 0;
  for (hsize_t first = 0; first < kRows; first += 8) {
    const hsize_t offset[2] = {first, 0};
    hsize_t size_a = 0, size_b = 0;
    ASSERT_GE(H5Dget_chunk_storage_size(ds.id, offset, &size_a), 0);
    ASSERT_GE(H5Dget_chunk_storage_size(copy.id, offset, &size_b), 0);
    EXPECT_LE(static_cast<double>(size_a), 1.01 * static_cast<double>(size_b))
        << "chunk at row " << first;
    EXPECT_LT(size_a, 8 * kWidth * 8) << "the high byte planes are deflated";
    ++compared;
  }
  EXPECT_EQ(compared, 5u);
}

// A writer holds at most one chunk of rows per dataset, however many rows pass through it, and
// nothing once closed: a long rollout streams in bounded memory.
TEST_F(TrajectoryTest, WriterMemoryIsBoundedByAChunkPerDataset) {
  const Model m = rich_model();
  constexpr size_t kChunk = 8;
  TrajectoryFileWriter file(path("bounded.h5"), m, options(kChunk));
  TrajectoryWriter& w = file.trajectory();
  const std::vector<Field> fields = {Field::kTime, Field::kQpos, Field::kQvel, Field::kNcon};
  size_t chunk_bytes = 0;  // one chunk of each field, and of each contact column
  for (Field f : fields) chunk_bytes += kChunk * field_row_size(f, m) * sizeof(double);
  for (const ContactColumn& c : kContactColumns) {
    chunk_bytes += kChunk * std::max<size_t>(c.width, 1) * sizeof(double);
  }
  size_t largest = 0;
  for (size_t r = 0; r < 50 * kChunk + 3; ++r) {
    for (Field f : fields) w.append(f, rows_of(f, m, r, 1));
    const ContactRecord c = contact_of(static_cast<int64_t>(r), 0);
    w.append_contacts({&c, 1});
    largest = std::max(largest, w.buffered_bytes());
  }
  EXPECT_GT(largest, 0u);
  EXPECT_LE(largest, chunk_bytes);
  w.close();
  EXPECT_EQ(w.buffered_bytes(), 0u);
  file.commit();
  Trajectory t = TrajectoryInput::open(path("bounded.h5")).single();
  EXPECT_EQ(t.read(Field::kQvel).data, rows_of(Field::kQvel, m, 0, 50 * kChunk + 3));
}

// joco-simulate's rollout loop appends a row of each recorded array (and its contacts) per step:
// once each dataset is made (its first chunk written), rows and the chunks they fill allocate
// nothing on the appending thread, compressed or not.
TEST_F(TrajectoryTest, AppendingRowsAllocatesNothing) {
  const Model m = rich_model();
  Data d(m);
  const Field fields[] = {Field::kTime, Field::kQpos, Field::kQvel,  Field::kCtrl,
                          Field::kQacc, Field::kNcon, Field::kFwdinv};
  for (const int level : {0, 1}) {
    SCOPED_TRACE(level);
    constexpr size_t kChunk = 16;
    TrajectoryFileWriter file(path("rows" + std::to_string(level) + ".h5"), m,
                              options(kChunk, level));
    TrajectoryWriter& w = file.trajectory();
    const std::vector<size_t> xpos_shape = {static_cast<size_t>(m.nbody), 3};
    const std::span<const double> xpos(d.xpos, 3 * static_cast<size_t>(m.nbody));
    const auto append = [&](size_t r) {  // a row as joco-simulate --record ...,xpos --contacts
      d.time = static_cast<double>(r);
      w.append_row(d, fields);
      w.append_extra("xpos", xpos_shape, xpos);
      const ContactRecord c = contact_of(static_cast<int64_t>(r), 0);
      w.append_contacts({&c, 1});
    };
    for (size_t r = 0; r < kChunk; ++r) append(r);  // the datasets made
    int64_t allocations = 0;
    {
      const joco::test::AllocationCounter counter;
      for (size_t r = kChunk; r < 21 * kChunk; ++r) append(r);
      allocations = counter.count();
    }
    EXPECT_EQ(allocations, 0);
    EXPECT_EQ(w.rows(Field::kQpos), 21 * kChunk);
    w.close();
    file.commit();
  }
}

// Rollouts of one file written from several threads at once (as joco-simulate's batches do): the
// file's lock keeps HDF5 to one thread, and each group reads back as written.
TEST_F(TrajectoryTest, RolloutsOfOneFileAreWrittenFromSeveralThreads) {
  const Model m = rich_model();
  constexpr int kRollouts = 6;
  constexpr size_t kRows = 203;
  {
    TrajectoryFileWriter file(path("threads.h5"), m, options(4));
    parallel_for(kRollouts, 3, [&](int, size_t r) {
      TrajectoryWriter& w = file.rollout(static_cast<int>(r));
      for (size_t row = 0; row < kRows; ++row) {
        for (Field f : {Field::kTime, Field::kQpos, Field::kQvel, Field::kNcon}) {
          std::vector<double> v = rows_of(f, m, row, 1);
          for (double& x : v) x += static_cast<double>(r);
          w.append(f, v);
        }
      }
      w.set_attribute("rollout", static_cast<int64_t>(r));
      w.close();
    });
    file.commit();
  }
  const TrajectoryInput in = TrajectoryInput::open(path("threads.h5"));
  ASSERT_EQ(in.rollout_groups().size(), static_cast<size_t>(kRollouts));
  for (int r = 0; r < kRollouts; ++r) {
    Trajectory t = in.trajectory(rollout_group(r));
    EXPECT_EQ(t.int_attribute("rollout"), r);
    for (Field f : {Field::kTime, Field::kQpos, Field::kQvel, Field::kNcon}) {
      std::vector<double> v = rows_of(f, m, 0, kRows);
      for (double& x : v) x += r;
      EXPECT_EQ(t.read(f).data, v) << rollout_group(r) << " " << field_info(f).name;
    }
  }
}

TEST_F(TrajectoryTest, AddressesAGroupWithFileColonGroup) {
  const Model m = joco::test::pendulum_model();
  const std::string p = path("batch.h5");
  {
    TrajectoryFileWriter file(p, m, options());
    for (int r = 0; r < 2; ++r) {
      file.rollout(r).append(Field::kQpos, rows_of(Field::kQpos, m, 10 * r, 2 + r));
    }
    file.commit();
  }
  EXPECT_EQ(parse_trajectory_ref(p).path, p);
  EXPECT_EQ(parse_trajectory_ref(p).group, "");
  EXPECT_EQ(parse_trajectory_ref(p + ":/rollout_00001").path, p);
  EXPECT_EQ(parse_trajectory_ref(p + ":/rollout_00001").group, "/rollout_00001");
  EXPECT_EQ(parse_trajectory_ref(p + ":/a/b/").group, "/a/b");
  EXPECT_EQ(parse_trajectory_ref(p + ":/").group, "/");
  EXPECT_EQ(parse_trajectory_ref("-:/rollout_00003").path, "-");
  EXPECT_EQ(parse_trajectory_ref("-:/rollout_00003").group, "/rollout_00003");
  EXPECT_EQ(parse_trajectory_ref("missing.h5:/g").path, "missing.h5");
  EXPECT_EQ(parse_trajectory_ref("-").path, "-");

  const TrajectoryInput in = TrajectoryInput::open(p + ":/rollout_00001");
  EXPECT_EQ(in.trajectory_groups(), std::vector<std::string>{"/rollout_00001"});
  Trajectory t = in.single();
  t.validate(m);
  EXPECT_EQ(t.where(), p + ":/rollout_00001");
  EXPECT_EQ(t.rows(), 3u);
  EXPECT_EQ(t.read(Field::kQpos).data, rows_of(Field::kQpos, m, 10, 3));

  EXPECT_THAT(input_error([&] { (void)TrajectoryInput::open(p + ":/rollout_00009").single(); }),
              HasSubstr(p + ": no group /rollout_00009"));
  EXPECT_THAT(
      input_error([&] { (void)TrajectoryInput::open(p + ":/rollout_00000/qpos").single(); }),
      HasSubstr(p + ":/rollout_00000/qpos: is a dataset, not a group"));
  EXPECT_THAT(input_error([&] { (void)TrajectoryInput::open(p + ":/model").single(); }),
              HasSubstr(p + ":/model: not a trajectory: no dataset qpos"));
}

TEST_F(TrajectoryTest, ReadsAFileImageFromMemoryAndStandardInput) {
  const Model m = rich_model();
  const std::string p = path("image.h5");
  {
    TrajectoryFileWriter file(p, m, options(3));
    write_all_fields(file.trajectory(), m, 5);
    file.commit();
  }
  {
    Trajectory t = TrajectoryInput::open_image(read_input(p), "<memory>").single();
    t.validate(m);
    EXPECT_EQ(t.where(), "<memory>:/");
    for (const FieldInfo& info : field_table())
      EXPECT_EQ(t.read(info.field).data, rows_of(info.field, m, 0, 5));
    EXPECT_EQ(t.read_contacts().size(), 4u);
  }
  // The image outlives the TrajectoryInput that made the trajectory.
  Trajectory kept = TrajectoryInput::open_image(read_input(p), "<memory>", "/").single();
  EXPECT_EQ(kept.read(Field::kQacc, 2, 3).data, rows_of(Field::kQacc, m, 2, 3));

  // "-" reads standard input whole.
  ASSERT_NE(std::freopen(p.c_str(), "rb", stdin), nullptr);
  const TrajectoryInput in = TrajectoryInput::open("-:/");
  EXPECT_EQ(in.name(), "<stdin>");
  Trajectory t = in.single();
  EXPECT_EQ(t.where(), "<stdin>:/");
  EXPECT_EQ(t.read(Field::kCtrl).data, rows_of(Field::kCtrl, m, 0, 5));
}

TEST_F(TrajectoryTest, ReadsAPipeGivenByPath) {
  // As with `joco-inverse m.jmb <(joco-simulate ...)`: the path names a pipe, which cannot seek.
  const Model m = joco::test::pendulum_model();
  const std::string p = path("piped.h5");
  {
    TrajectoryFileWriter file(p, m, options());
    file.trajectory().append(Field::kQpos, rows_of(Field::kQpos, m, 0, 3));
    file.commit();
  }
  const std::vector<uint8_t> bytes = read_input(p);
  ASSERT_LT(bytes.size(), 65536u);  // fits the pipe's buffer: no writer thread needed
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fds[1]);
  const std::string fd_path = "/dev/fd/" + std::to_string(fds[0]);
  Trajectory t = TrajectoryInput::open(fd_path + ":/").single();
  ::close(fds[0]);
  EXPECT_EQ(t.where(), fd_path + ":/");
  EXPECT_EQ(t.read(Field::kQpos).data, rows_of(Field::kQpos, m, 0, 3));
}

// Chunks stored uncompressed take their whole size in the file, rows past the end included: a
// dataset of fewer rows than a chunk gets a chunk of just its rows (a batch of many short rollouts
// would otherwise take 64 KiB per dataset), a longer one written row by row chunks of the usual
// size, and one whose rows all come at once equal chunks of at most that size.
TEST_F(TrajectoryTest, ShortDatasetsGetChunksOfTheirRows) {
  const Model m = rich_model();
  const std::string p = path("short.h5");
  constexpr size_t kLong = 5000;  // fewer than a chunk of time (8192 rows), more of qpos (910)
  {
    TrajectoryFileWriter file(p, m, options());
    TrajectoryWriter& w = file.trajectory();
    w.append(Field::kQpos, rows_of(Field::kQpos, m, 0, kLong));
    w.append(Field::kTime, rows_of(Field::kTime, m, 0, kLong));
    w.append(Field::kQvel, rows_of(Field::kQvel, m, 0, 1));
    w.append(Field::kQvel, rows_of(Field::kQvel, m, 1, kLong - 1));
    w.enable_contacts();
    file.commit();
  }
  Id f(H5Fopen(p.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  const auto chunk_rows = [&](const char* name) {
    Id ds(H5Dopen2(f, name, H5P_DEFAULT), H5Dclose);
    Id dcpl(H5Dget_create_plist(ds), H5Pclose);
    hsize_t chunk[2] = {};
    EXPECT_GE(H5Pget_chunk(dcpl, 2, chunk), 1);
    return chunk[0];
  };
  EXPECT_EQ(chunk_rows("time"), kLong);  // 40 KB: one chunk of its rows
  // 360 KB at once: the 6 chunks of 64 KiB (910 rows) it needs, of 834 rows (the last of 830)
  EXPECT_EQ(chunk_rows("qpos"), 834u);
  EXPECT_EQ(chunk_rows("qvel"), 65536u / (8 * static_cast<size_t>(m.nv)));  // 64 KiB chunks
  EXPECT_EQ(chunk_rows("contact/pos"), 1u);  // no contacts: an empty table
  Id pos(H5Dopen2(f, "contact/pos", H5P_DEFAULT), H5Dclose);
  Id space(H5Dget_space(pos), H5Sclose);
  EXPECT_EQ(H5Sget_simple_extent_npoints(space), 0);
}

TEST_F(TrajectoryTest, WriteFailuresAreRuntimeErrors) {
  const Model m = joco::test::pendulum_model();
  const std::string p = path("no/such/dir/out.h5");
  try {
    TrajectoryFileWriter file(p, m, options());
    ADD_FAILURE() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(exit_code(e), kExitRuntime);
    EXPECT_EQ(e.what(), "cannot create " + p + ": No such file or directory");
  }
}

TEST_F(TrajectoryTest, WritesToStandardOutput) {
  const Model m = joco::test::pendulum_model();
  const std::string captured = path("stdout.h5");
  std::fflush(stdout);
  const int saved = ::dup(1);
  const int fd = ::open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ::dup2(fd, 1);
  ::close(fd);
  {
    TrajectoryFileWriter file("-", m, options());
    file.trajectory().append(Field::kQpos, rows_of(Field::kQpos, m, 0, 4));
    file.commit();
  }
  std::fflush(stdout);
  ::dup2(saved, 1);
  ::close(saved);
  Trajectory t = TrajectoryInput::open(captured).single();
  t.validate(m);
  EXPECT_EQ(t.read(Field::kQpos).data, rows_of(Field::kQpos, m, 0, 4));
}

TEST_F(TrajectoryTest, NothingAppearsAtTheTargetBeforeCommit) {
  const Model m = joco::test::pendulum_model();
  const std::string p = path("atomic.h5");
  {
    TrajectoryFileWriter file(p, m, options());
    file.trajectory().append(Field::kQpos, rows_of(Field::kQpos, m, 0, 2));
    EXPECT_FALSE(fs::exists(p));
    // Dropped without commit: no file, and no temporary left behind.
  }
  EXPECT_FALSE(fs::exists(p));
  EXPECT_TRUE(fs::is_empty(dir_));

  // A failed commit (rows that do not match) leaves nothing either, and an old file stays.
  write_output(p, std::vector<uint8_t>{'o', 'l', 'd'});
  {
    TrajectoryFileWriter file(p, m, options());
    TrajectoryWriter& w = file.trajectory();
    w.append(Field::kQpos, rows_of(Field::kQpos, m, 0, 3));
    w.append(Field::kQvel, rows_of(Field::kQvel, m, 0, 2));
    try {
      file.commit();
      ADD_FAILURE() << "commit succeeded";
    } catch (const std::logic_error& e) {
      EXPECT_THAT(e.what(), HasSubstr(p + ":/qvel: has 2 rows, qpos has 3"));
    }
  }
  EXPECT_EQ(read_input(p), (std::vector<uint8_t>{'o', 'l', 'd'}));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(TrajectoryTest, SameContentGivesTheSameBytes) {
  const Model m = rich_model();
  for (const char* name : {"a.h5", "b.h5"}) {
    TrajectoryFileWriter file(path(name), m, options(4));
    write_all_fields(file.trajectory(), m, 9);
    file.commit();
  }
  EXPECT_EQ(read_input(path("a.h5")), read_input(path("b.h5")));
}

// Opens the written file with the plain HDF5 C API, as h5py or any other reader would: chunks
// stored as they are by default, shuffled and deflated with --compress (deflate level 1).
TEST_F(TrajectoryTest, FilesAreStandardHdf5) {
  const Model m = rich_model();
  const std::string p = path("plain.h5"), pz = path("compressed.h5");
  for (const auto& [name, level] : {std::pair{p, 0}, std::pair{pz, 1}}) {
    TrajectoryFileWriter file(name, m, options(5, level));
    write_all_fields(file.trajectory(), m, 7);
    file.commit();
  }
  Id f(H5Fopen(p.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  Id fz(H5Fopen(pz.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  Id root(H5Gopen2(f, "/", H5P_DEFAULT), H5Gclose);

  auto attribute_string = [&](const char* name) {
    Id a(H5Aopen(root, name, H5P_DEFAULT), H5Aclose);
    Id type(H5Aget_type(a), H5Tclose);
    EXPECT_EQ(H5Tget_class(type), H5T_STRING);
    EXPECT_GT(H5Tis_variable_str(type), 0);
    EXPECT_EQ(H5Tget_cset(type), H5T_CSET_UTF8);
    char* s = nullptr;
    EXPECT_GE(H5Aread(a, type, &s), 0);
    std::string out = s ? s : "";
    H5free_memory(s);
    return out;
  };
  auto attribute_type_is = [&](const char* name, hid_t expected) {
    Id a(H5Aopen(root, name, H5P_DEFAULT), H5Aclose);
    Id type(H5Aget_type(a), H5Tclose);
    return H5Tequal(type, expected) > 0;
  };
  EXPECT_EQ(attribute_string("format"), "joco.trajectory");
  EXPECT_EQ(attribute_string("model_name"), "rich pendulum");
  EXPECT_EQ(attribute_string("creator"), "trajectory_test 1.0");
  EXPECT_EQ(attribute_string("command"), "trajectory_test --all");
  EXPECT_TRUE(attribute_type_is("format_version", H5T_STD_I64LE));
  EXPECT_TRUE(attribute_type_is("model_checksum", H5T_STD_U64LE));
  EXPECT_TRUE(attribute_type_is("timestep", H5T_IEEE_F64LE));
  int version = 0;
  EXPECT_GE(H5LTget_attribute_int(f, "/", "format_version", &version), 0);
  EXPECT_EQ(version, 1);
  uint64_t checksum = 0;
  {
    Id a(H5Aopen(root, "model_checksum", H5P_DEFAULT), H5Aclose);
    EXPECT_GE(H5Aread(a, H5T_NATIVE_UINT64, &checksum), 0);
  }
  EXPECT_EQ(checksum, model_checksum(m));
  double timestep = 0;
  EXPECT_GE(H5LTget_attribute_double(f, "/", "timestep", &timestep), 0);
  EXPECT_EQ(timestep, 0.004);
  const std::pair<const char*, int> sizes[] = {
      {"nq", 9}, {"nv", 8}, {"na", 2}, {"nu", 1}, {"nsensordata", 5}};
  for (const auto& [name, value] : sizes) {
    int v = -1;
    EXPECT_GE(H5LTget_attribute_int(f, "/", name, &v), 0);
    EXPECT_EQ(v, value) << name;
  }

  // Every dataset: shape, type, chunks of rows, extendible rows; no filters, or (compressed)
  // shuffle + deflate, the same values.
  struct Expected {
    const char* path;
    std::vector<hsize_t> dims;
    hid_t type;
  };
  const std::vector<Expected> datasets = {
      {"time", {7}, H5T_IEEE_F64LE},
      {"qpos", {7, 9}, H5T_IEEE_F64LE},
      {"qvel", {7, 8}, H5T_IEEE_F64LE},
      {"act", {7, 2}, H5T_IEEE_F64LE},
      {"ctrl", {7, 1}, H5T_IEEE_F64LE},
      {"qacc", {7, 8}, H5T_IEEE_F64LE},
      {"sensordata", {7, 5}, H5T_IEEE_F64LE},
      {"qfrc_applied", {7, 8}, H5T_IEEE_F64LE},
      {"xfrc_applied", {7, 4, 6}, H5T_IEEE_F64LE},
      {"qfrc_inverse", {7, 8}, H5T_IEEE_F64LE},
      {"qfrc_constraint", {7, 8}, H5T_IEEE_F64LE},
      {"qfrc_actuator", {7, 8}, H5T_IEEE_F64LE},
      {"qfrc_bias", {7, 8}, H5T_IEEE_F64LE},
      {"ncon", {7}, H5T_STD_I32LE},
      {"nefc", {7}, H5T_STD_I32LE},
      {"solver_niter", {7}, H5T_STD_I32LE},
      {"fwdinv", {7, 2}, H5T_IEEE_F64LE},
      {"contact/row", {6}, H5T_STD_I64LE},
      {"contact/geom1", {6}, H5T_STD_I32LE},
      {"contact/geom2", {6}, H5T_STD_I32LE},
      {"contact/pos", {6, 3}, H5T_IEEE_F64LE},
      {"contact/frame", {6, 9}, H5T_IEEE_F64LE},
      {"contact/dist", {6}, H5T_IEEE_F64LE},
      {"contact/force", {6, 6}, H5T_IEEE_F64LE},
  };
  for (const Expected& e : datasets) {
    SCOPED_TRACE(e.path);
    Id ds(H5Dopen2(f, e.path, H5P_DEFAULT), H5Dclose);
    Id type(H5Dget_type(ds), H5Tclose);
    EXPECT_GT(H5Tequal(type, e.type), 0);
    Id space(H5Dget_space(ds), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space);
    ASSERT_EQ(rank, static_cast<int>(e.dims.size()));
    std::vector<hsize_t> dims(rank), max(rank);
    H5Sget_simple_extent_dims(space, dims.data(), max.data());
    EXPECT_EQ(dims, e.dims);
    EXPECT_EQ(max[0], H5S_UNLIMITED);
    for (int i = 1; i < rank; ++i) EXPECT_EQ(max[i], e.dims[i]);
    Id dcpl(H5Dget_create_plist(ds), H5Pclose);
    EXPECT_EQ(H5Pget_layout(dcpl), H5D_CHUNKED);
    std::vector<hsize_t> chunk(rank);
    EXPECT_EQ(H5Pget_chunk(dcpl, rank, chunk.data()), rank);
    EXPECT_EQ(chunk[0], 5u);
    for (int i = 1; i < rank; ++i) EXPECT_EQ(chunk[i], e.dims[i]);
    EXPECT_EQ(H5Pget_nfilters(dcpl), 0);
    Id dsz(H5Dopen2(fz, e.path, H5P_DEFAULT), H5Dclose);
    Id dcplz(H5Dget_create_plist(dsz), H5Pclose);
    ASSERT_EQ(H5Pget_nfilters(dcplz), 2);
    unsigned flags = 0, values[4] = {};
    size_t nvalues = 4;
    EXPECT_EQ(H5Pget_filter2(dcplz, 0, &flags, &nvalues, values, 0, nullptr, nullptr),
              H5Z_FILTER_SHUFFLE);
    nvalues = 4;
    EXPECT_EQ(H5Pget_filter2(dcplz, 1, &flags, &nvalues, values, 0, nullptr, nullptr),
              H5Z_FILTER_DEFLATE);
    const hsize_t n = H5Sget_simple_extent_npoints(space);
    std::vector<double> plain(n), compressed(n);
    ASSERT_GE(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, plain.data()), 0);
    ASSERT_GE(H5Dread(dsz, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, compressed.data()), 0);
    EXPECT_EQ(plain, compressed);
  }
  // Values read without the module.
  std::vector<double> qvel(7 * 8);
  EXPECT_GE(H5LTread_dataset_double(f, "qvel", qvel.data()), 0);
  EXPECT_EQ(qvel, rows_of(Field::kQvel, m, 0, 7));
  std::vector<int> ncon(7);
  EXPECT_GE(H5LTread_dataset_int(f, "ncon", ncon.data()), 0);
  for (size_t r = 0; r < 7; ++r) EXPECT_EQ(ncon[r], value_of(Field::kNcon, r, 0));

  // /model: names as 1-D variable-length UTF-8 strings, joint and sensor maps as int32.
  auto names = [&](const char* name) {
    Id ds(H5Dopen2(f, name, H5P_DEFAULT), H5Dclose);
    Id type(H5Dget_type(ds), H5Tclose);
    EXPECT_GT(H5Tis_variable_str(type), 0);
    EXPECT_EQ(H5Tget_cset(type), H5T_CSET_UTF8);
    Id space(H5Dget_space(ds), H5Sclose);
    EXPECT_EQ(H5Sget_simple_extent_ndims(space), 1);
    std::vector<char*> strings(H5Sget_simple_extent_npoints(space));
    EXPECT_GE(H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, strings.data()), 0);
    std::vector<std::string> out;
    for (char* s : strings) {
      out.emplace_back(s);
      H5free_memory(s);
    }
    return out;
  };
  EXPECT_THAT(names("/model/body_names"), ElementsAre("world", "link1", "link2", "box"));
  EXPECT_THAT(names("/model/joint_names"), ElementsAre("hinge1", "hinge2", "free"));
  EXPECT_THAT(names("/model/geom_names"), ElementsAre("floor", "rod1", "rod2", "cube"));
  EXPECT_THAT(names("/model/actuator_names"), ElementsAre("motor"));
  EXPECT_THAT(names("/model/sensor_names"), ElementsAre("touch", "gyro"));
  std::vector<int> ints(3);
  EXPECT_GE(H5LTread_dataset_int(f, "/model/jnt_qposadr", ints.data()), 0);
  EXPECT_THAT(ints, ElementsAre(0, 1, 2));
  EXPECT_GE(H5LTread_dataset_int(f, "/model/jnt_dofadr", ints.data()), 0);
  EXPECT_THAT(ints, ElementsAre(0, 1, 2));
  EXPECT_GE(H5LTread_dataset_int(f, "/model/jnt_type", ints.data()), 0);
  EXPECT_THAT(ints, ElementsAre(3, 3, 0));  // hinge, hinge, free
  ints.resize(2);
  EXPECT_GE(H5LTread_dataset_int(f, "/model/sensor_adr", ints.data()), 0);
  EXPECT_THAT(ints, ElementsAre(0, 2));
  EXPECT_GE(H5LTread_dataset_int(f, "/model/sensor_dim", ints.data()), 0);
  EXPECT_THAT(ints, ElementsAre(2, 3));
}

TEST_F(TrajectoryTest, ZeroWideFieldsAreOmittedAndQposAlwaysStored) {
  // A model without degrees of freedom, actuators or sensors: only qpos (T, 0) and time are stored.
  ModelSizes s;
  s.nbody = 1;
  s.nnames = 6;
  Model m(s);
  std::memcpy(m.names, "world", 6);
  const std::string p = path("empty.h5");
  {
    TrajectoryFileWriter file(p, m, options());
    TrajectoryWriter& w = file.trajectory();
    // Whole trajectories at once (as joco-simulate writes a rollout) and row by row alike.
    w.append(Field::kTime, std::vector<double>{0, 0.5, 1});
    w.append(Field::kQpos, std::span<const double>(), 3);
    for (int r = 0; r < 3; ++r) w.append(Field::kQvel, std::span<const double>(), 1);
    EXPECT_EQ(w.rows(Field::kQpos), 3u);
    EXPECT_EQ(w.rows(Field::kQvel), 3u);
    file.commit();
  }
  Trajectory t = TrajectoryInput::open(p).single();
  t.validate(m, {Field::kTime, Field::kQpos, Field::kQvel, Field::kCtrl});
  EXPECT_EQ(t.rows(), 3u);
  EXPECT_THAT(t.fields(), ElementsAre(Field::kTime, Field::kQpos));
  EXPECT_EQ(t.dims(Field::kQpos), (std::vector<size_t>{3, 0}));
  EXPECT_EQ(t.read(Field::kTime).data, (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(t.read(Field::kQvel).cols, 0u);
  EXPECT_FALSE(t.has_contacts());
}

TEST_F(TrajectoryTest, AcceptsAQposOnlyTrajectoryFromAnotherWriter) {
  // float32 qpos with no attributes and no /model, as a motion-capture script might write it.
  const Model m = joco::test::pendulum_model();
  const std::string p = path("mocap.h5");
  {
    Id f(H5Fcreate(p.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    std::vector<float> qpos(4 * 9);
    for (size_t i = 0; i < qpos.size(); ++i) qpos[i] = 0.25f * static_cast<float>(i);
    const hsize_t dims[] = {4, 9};
    ASSERT_GE(H5LTmake_dataset_float(f, "qpos", 2, dims, qpos.data()), 0);
    // A scalar field stored (T, 1) and a one-wide field stored (T,): both accepted.
    const int time[] = {0, 1, 2, 3};
    const hsize_t tdims[] = {4, 1};
    ASSERT_GE(H5LTmake_dataset_int(f, "time", 2, tdims, time), 0);
    const double ctrl[] = {0.5, 0.25, 0, -0.25};
    ASSERT_GE(H5LTmake_dataset_double(f, "ctrl", 1, tdims, ctrl), 0);
  }
  const TrajectoryInput in = TrajectoryInput::open(p);
  Trajectory t = in.single();
  t.validate(m, {Field::kQpos});
  EXPECT_THAT(t.fields(), ElementsAre(Field::kTime, Field::kQpos, Field::kCtrl));
  EXPECT_FALSE(t.has(Field::kQvel));
  EXPECT_FALSE(t.string_attribute("format").has_value());
  const Matrix qpos = t.read(Field::kQpos);
  ASSERT_EQ(qpos.cols, 9u);
  for (size_t i = 0; i < qpos.data.size(); ++i)
    EXPECT_EQ(qpos.data[i], 0.25 * static_cast<double>(i));
  EXPECT_EQ(qpos(3, 8), 0.25 * 35);
  EXPECT_EQ(t.read(Field::kTime).data, (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(t.read(Field::kCtrl).data, (std::vector<double>{0.5, 0.25, 0, -0.25}));
  EXPECT_THAT(input_error([&] {
                t.validate(m, {Field::kQpos, Field::kQvel});
              }),
              HasSubstr(p + ":/: no dataset qvel (required here)"));
  EXPECT_THAT(input_error([&] { (void)t.read(Field::kQvel); }),
              HasSubstr(p + ":/: no dataset qvel"));
  const ModelInfo info = in.model_info();
  EXPECT_TRUE(info.joint_names.empty());
  EXPECT_FALSE(info.model_checksum.has_value());
}

TEST_F(TrajectoryTest, ReportsEveryInputProblemNamingFileGroupAndDataset) {
  const Model m = joco::test::pendulum_model();
  auto open_validate = [&](const std::string& p) {
    Trajectory t = TrajectoryInput::open(p).single();
    t.validate(m);
    (void)t.read(Field::kQpos);
  };
  auto add = [](hid_t f, const char* name, std::vector<hsize_t> dims) {
    size_t n = 1;
    for (hsize_t d : dims) n *= d;
    std::vector<double> v(n, 1.0);
    ASSERT_GE(
        H5LTmake_dataset_double(f, name, static_cast<int>(dims.size()), dims.data(), v.data()), 0);
  };

  EXPECT_EQ(input_error([&] { (void)TrajectoryInput::open(path("missing.h5")); }),
            path("missing.h5") + ": cannot open: No such file or directory");
  EXPECT_EQ(input_error([&] { (void)TrajectoryInput::open(dir_); }),
            dir_ + ": is a directory, not a file");

  write_output(path("text.h5"), std::vector<uint8_t>{'n', 'o', 't', ' ', 'h', 'd', 'f', '5', '\n'});
  EXPECT_EQ(input_error([&] { (void)TrajectoryInput::open(path("text.h5")); }),
            path("text.h5") + ": not an HDF5 file");
  EXPECT_EQ(input_error(
                [&] { (void)TrajectoryInput::open_image(read_input(path("text.h5")), "<stdin>"); }),
            "<stdin>: not an HDF5 file");
  EXPECT_EQ(input_error([&] { (void)TrajectoryInput::open_image({}, "<stdin>"); }),
            "<stdin>: empty input, not an HDF5 file");
  // An HDF5 signature followed by garbage.
  std::vector<uint8_t> fake(4096, 0xab);
  std::memcpy(fake.data(), "\x89HDF\r\n\x1a\n", 8);
  EXPECT_THAT(input_error([&] { (void)TrajectoryInput::open_image(fake, "<stdin>"); }),
              HasSubstr("<stdin>: cannot open as HDF5"));
  // A good file cut short, from a path and from memory.
  const std::string whole = path("whole.h5"), cut = path("cut.h5");
  {
    TrajectoryFileWriter file(whole, m, options());
    file.trajectory().append(Field::kQpos, rows_of(Field::kQpos, m, 0, 50));
    file.commit();
  }
  std::vector<uint8_t> bytes = read_input(whole);
  bytes.resize(bytes.size() / 2);
  write_output(cut, bytes);
  EXPECT_THAT(input_error([&] { (void)TrajectoryInput::open(cut); }),
              HasSubstr(cut + ": cannot open as HDF5"));
  EXPECT_THAT(input_error([&] { (void)TrajectoryInput::open_image(bytes, "<stdin>"); }),
              HasSubstr("<stdin>: cannot open as HDF5"));

  const std::string no_qpos = path("no_qpos.h5");
  {
    Id f(H5Fcreate(no_qpos.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    add(f, "qvel", {3, 8});
  }
  EXPECT_EQ(
      input_error([&] { open_validate(no_qpos); }),
      no_qpos + ": holds no trajectory (no qpos dataset at the root, no /rollout_NNNNN group)");
  EXPECT_EQ(input_error([&] { (void)TrajectoryInput::open(no_qpos + ":/").single(); }),
            no_qpos + ":/: not a trajectory: no dataset qpos");
  EXPECT_EQ(input_error([&] { open_validate(no_qpos + ":/rollout_00002"); }),
            no_qpos + ": no group /rollout_00002");

  const std::string narrow = foreign_file("narrow.h5", 3, [&](hid_t f) { add(f, "qvel", {3, 7}); });
  EXPECT_EQ(input_error([&] { open_validate(narrow); }),
            narrow + ":/qvel: has 7 columns, but the model has nv = 8");
  const std::string wrong_qpos = path("wrong_qpos.h5");
  {
    Id f(H5Fcreate(wrong_qpos.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    add(f, "qpos", {3, 7});
  }
  EXPECT_EQ(input_error([&] { open_validate(wrong_qpos); }),
            wrong_qpos + ":/qpos: has 7 columns, but the model has nq = 9");
  const std::string xfrc = foreign_file("xfrc.h5", 3, [&](hid_t f) {
    add(f, "xfrc_applied", {3, 5, 6});
  });
  EXPECT_EQ(input_error([&] { open_validate(xfrc); }),
            xfrc + ":/xfrc_applied: has shape (3, 5, 6); expected (3, 4, 6) for nbody = 4");
  // A field that tools only write (fwdinv, sensordata, ...) and that does not fit is dropped, not
  // refused: the file is still a good input.
  const std::string fwdinv = foreign_file("fwdinv.h5", 3, [&](hid_t f) {
    add(f, "fwdinv", {3});
    add(f, "sensordata", {3, 4, 2});
    add(f, "ncon", {2});
  });
  {
    Trajectory t = TrajectoryInput::open(fwdinv).single();
    EXPECT_FALSE(t.has(Field::kSensordata));  // rank 3
    EXPECT_FALSE(t.has(Field::kNcon));        // 2 rows of 3
    EXPECT_TRUE(t.has(Field::kFwdinv));
    t.validate(m);
    EXPECT_FALSE(t.has(Field::kFwdinv));  // (3,), not (3, 2)
    EXPECT_EQ(t.read(Field::kQpos).rows, 3u);
  }

  const std::string rank3 = foreign_file("rank3.h5", 3, [&](hid_t f) {
    add(f, "qacc", {3, 8, 1});
  });
  EXPECT_EQ(input_error([&] { open_validate(rank3); }),
            rank3 + ":/qacc: has rank 3, shape (3, 8, 1); expected (T, nv)");
  const std::string time2 = foreign_file("time2.h5", 3, [&](hid_t f) { add(f, "time", {3, 2}); });
  EXPECT_EQ(input_error([&] { open_validate(time2); }),
            time2 + ":/time: has rank 2, shape (3, 2); expected (T,)");
  const std::string xfrc2 = foreign_file("xfrc2.h5", 3, [&](hid_t f) {
    add(f, "xfrc_applied", {3, 24});
  });
  EXPECT_EQ(input_error([&] { open_validate(xfrc2); }),
            xfrc2 + ":/xfrc_applied: has rank 2, shape (3, 24); expected (T, nbody, 6)");

  const std::string rows = foreign_file("rows.h5", 3, [&](hid_t f) { add(f, "qvel", {4, 8}); });
  EXPECT_EQ(input_error([&] { open_validate(rows); }), rows + ":/qvel: has 4 rows, qpos has 3");
  const std::string empty = path("zero_rows.h5");
  {
    Id f(H5Fcreate(empty.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    add(f, "qpos", {0, 9});
  }
  EXPECT_EQ(input_error([&] { open_validate(empty); }), empty + ":/qpos: has no rows");

  const std::string strings = foreign_file(
      "strings.h5", 3, [&](hid_t f) { ASSERT_GE(H5LTmake_dataset_string(f, "ctrl", "abc"), 0); });
  EXPECT_EQ(input_error([&] { open_validate(strings); }),
            strings + ":/ctrl: holds strings, not numbers");
  const std::string group = foreign_file("group.h5", 3, [&](hid_t f) {
    Id g(H5Gcreate2(f, "qvel", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  });
  EXPECT_EQ(input_error([&] { open_validate(group); }), group + ":/qvel: is not a dataset");

  const std::string nan = path("nan.h5");
  {
    Id f(H5Fcreate(nan.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    std::vector<double> qpos(3 * 9, 0.0);
    qpos[2 * 9 + 4] = std::numeric_limits<double>::quiet_NaN();
    const hsize_t dims[] = {3, 9};
    ASSERT_GE(H5LTmake_dataset_double(f, "qpos", 2, dims, qpos.data()), 0);
    std::vector<double> qacc(3 * 8, std::numeric_limits<double>::infinity());  // outputs may be
    const hsize_t adims[] = {3, 8};
    ASSERT_GE(H5LTmake_dataset_double(f, "qacc", 2, adims, qacc.data()), 0);
  }
  EXPECT_EQ(input_error([&] { open_validate(nan); }), nan + ":/qpos: row 2, column 4 is nan");
  {
    Trajectory t = TrajectoryInput::open(nan).single();
    EXPECT_TRUE(std::isinf(t.read(Field::kQacc)(1, 1)));
    EXPECT_EQ(t.read(Field::kQpos, 0, 2).rows, 2u);  // rows without the NaN read fine
    // A tool that checks rows itself (joco-inverse names every bad one) reads them as they are.
    EXPECT_TRUE(std::isnan(t.read(Field::kQpos, 0, SIZE_MAX, false)(2, 4)));
  }

  const std::string sizes = foreign_file("sizes.h5", 3, [&](hid_t f) {
    const int nq = 7;
    ASSERT_GE(H5LTset_attribute_int(f, "/", "nq", &nq, 1), 0);
  });
  EXPECT_EQ(input_error([&] { open_validate(sizes); }),
            sizes + ":/: written for a model with nq = 7, this model has nq = 9");
  // Another program's format marks are its own: the datasets are read by name.
  const std::string format = foreign_file("format.h5", 3, [&](hid_t f) {
    ASSERT_GE(H5LTset_attribute_string(f, "/", "format", "other.format"), 0);
    const int v = 7;
    ASSERT_GE(H5LTset_attribute_int(f, "/", "format_version", &v, 1), 0);
  });
  EXPECT_NO_THROW(open_validate(format));
  // A joco trajectory of a later format version is refused.
  const std::string version = foreign_file("version.h5", 3, [&](hid_t f) {
    ASSERT_GE(H5LTset_attribute_string(f, "/", "format", "joco.trajectory"), 0);
    const int v = 2;
    ASSERT_GE(H5LTset_attribute_int(f, "/", "format_version", &v, 1), 0);
  });
  EXPECT_EQ(input_error([&] { open_validate(version); }),
            version + ":/: format_version 2 is newer than this joco reads (1)");

  // A contact table missing a column, and one that points past the trajectory.
  const std::string contact = foreign_file("contact.h5", 3, [&](hid_t f) {
    Id g(H5Gcreate2(f, "contact", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    const double row[] = {0, 5};
    const hsize_t n[] = {2};
    ASSERT_GE(H5LTmake_dataset_double(g, "row", 1, n, row), 0);
  });
  {
    Trajectory t = TrajectoryInput::open(contact).single();
    EXPECT_EQ(input_error([&] { (void)t.read_contacts(); }),
              contact + ":/contact: no dataset geom1");
  }
  // Complete tables whose rows are out of order or past the trajectory (3 rows).
  auto table = [&](const std::string& name, std::vector<double> row) {
    return foreign_file(name, 3, [&](hid_t f) {
      Id g(H5Gcreate2(f, "contact", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
      const hsize_t n = row.size();
      ASSERT_GE(H5LTmake_dataset_double(g, "row", 1, &n, row.data()), 0);
      const std::vector<int> geoms(n, 1);
      ASSERT_GE(H5LTmake_dataset_int(g, "geom1", 1, &n, geoms.data()), 0);
      ASSERT_GE(H5LTmake_dataset_int(g, "geom2", 1, &n, geoms.data()), 0);
      add(g, "pos", {n, 3});
      add(g, "frame", {n, 9});
      add(g, "dist", {n});
      add(g, "force", {n, 6});
    });
  };
  const std::string order = table("order.h5", {0, 2, 1});
  EXPECT_EQ(input_error([&] { (void)TrajectoryInput::open(order).single().read_contacts(); }),
            order +
                ":/contact/row: contact 2 (row 1) comes after a contact of row 2; contacts must be "
                "in row order");
  const std::string past = table("past.h5", {0, 3});
  EXPECT_EQ(input_error([&] { (void)TrajectoryInput::open(past).single().read_contacts(); }),
            past + ":/contact/row: contact 1 refers to row 3 of 3");
  EXPECT_EQ(TrajectoryInput::open(table("good.h5", {0, 0, 2})).single().read_contacts().size(), 3u);

  const std::string contact_row = path("contact_row.h5");
  {
    TrajectoryFileWriter file(contact_row, m, options());
    file.trajectory().append(Field::kQpos, rows_of(Field::kQpos, m, 0, 2));
    const ContactRecord c = contact_of(1, 0);
    file.trajectory().append_contacts(std::span<const ContactRecord>(&c, 1));
    file.commit();
  }
  {
    Trajectory t = TrajectoryInput::open(contact_row).single();
    t.validate(m);
    EXPECT_EQ(t.read_contacts().size(), 1u);
    ModelSizes fewer = m.sizes();
    fewer.ngeom = 1;
    const Model small(fewer);
    Trajectory u = TrajectoryInput::open(contact_row).single();
    u.validate(small);
    EXPECT_EQ(input_error([&] { (void)u.read_contacts(); }),
              contact_row + ":/contact: contact 0 has geom id 1, the model has ngeom = 1");
  }
}

TEST_F(TrajectoryTest, WriterRejectsMisuse) {
  const Model m = joco::test::pendulum_model();
  TrajectoryFileWriter file(path("misuse.h5"), m, options());
  TrajectoryWriter& w = file.rollout(0);
  EXPECT_THROW(file.trajectory(), std::logic_error);
  EXPECT_THROW(w.append(Field::kQpos, std::vector<double>(10)), std::invalid_argument);
  EXPECT_THROW(w.append(Field::kAct, std::vector<double>(1)), std::invalid_argument);  // na = 0
  const ContactRecord c = contact_of(5, 0);
  w.append(Field::kQpos, rows_of(Field::kQpos, m, 0, 2));
  w.append_contacts(std::span<const ContactRecord>(&c, 1));
  const ContactRecord earlier = contact_of(4, 0);
  EXPECT_THROW(w.append_contacts(std::span<const ContactRecord>(&earlier, 1)),
               std::invalid_argument);
  try {
    w.close();
    ADD_FAILURE() << "close succeeded";
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(":/rollout_00000/contact: a contact refers to row 5 of 2"));
  }
  TrajectoryFileWriter other(path("misuse2.h5"), m, options());
  other.rollout(3);
  EXPECT_THROW(other.commit(), std::logic_error);  // rollout 3 has no rows
}

}  // namespace
}  // namespace joco::tools

namespace joco::tools {
namespace {

// Extra per-row datasets (the derivative matrices): any row shape, chunked over many rows, empty
// ones (a zero dimension) made whole at close, attributes on both, and the row count checked.
TEST(TrajectoryExtras, RoundTripAnyShape) {
  const Model m = joco::test::pendulum_model();
  const test::TempDir temp;
  const std::string& dir = temp.path();
  WriterOptions options;
  options.chunk_rows = 3;
  {
    TrajectoryFileWriter file(dir + "/x.h5", m, options);
    TrajectoryWriter& w = file.trajectory();
    Data d(m);
    for (int row = 0; row < 7; ++row) {
      w.append_row(d, {Field::kQpos});
      std::vector<double> a(2 * 3);
      for (size_t i = 0; i < a.size(); ++i) a[i] = 10.0 * row + static_cast<double>(i);
      w.append_extra("A", {2, 3}, a);
      w.append_extra("empty", {4, 0}, {}, 1);
      if (row == 0) {
        w.set_extra_attribute("A", "meaning", "a test");
        w.set_extra_attribute("empty", "meaning", "nothing");
      }
    }
    EXPECT_THROW(w.append_extra("A", {3, 2}, std::vector<double>(6)), std::invalid_argument);
    EXPECT_THROW(w.append_extra("empty", {4, 0}, {}), std::invalid_argument);  // rows unknown
    EXPECT_THROW(w.append_extra("qpos", {1}, std::vector<double>(1)), std::invalid_argument);
    file.commit();
  }
  Trajectory t = TrajectoryInput::open(dir + "/x.h5").single();
  std::vector<size_t> dims;
  const Matrix a = t.read_extra("A", &dims);
  EXPECT_THAT(dims, ElementsAre(7, 2, 3));
  EXPECT_EQ(a(6, 5), 65);
  EXPECT_EQ(a(3, 2), 32);
  t.read_extra("empty", &dims);
  EXPECT_THAT(dims, ElementsAre(7, 4, 0));
  EXPECT_EQ(t.dataset_string_attribute("A", "meaning").value_or(""), "a test");
  EXPECT_EQ(t.dataset_string_attribute("empty", "meaning").value_or(""), "nothing");
  EXPECT_FALSE(t.has_extra("B"));
  EXPECT_THROW(t.read_extra("B"), InputError);
}

// A per-row loop's handles (TrajectoryWriter::extra) write what appending by name writes, with the
// same checks; allow_missing holds for a handle made before it.
TEST(TrajectoryExtras, HandlesAppendAsNamesDo) {
  const Model m = joco::test::pendulum_model();
  const test::TempDir temp;
  const std::string& dir = temp.path();
  WriterOptions options;
  options.strict_finite = true;  // a NaN anywhere but in "seen" would throw
  {
    TrajectoryFileWriter file(dir + "/x.h5", m, options);
    TrajectoryWriter& w = file.trajectory();
    const ExtraDataset a = w.extra("A", {2, 3});
    const ExtraDataset seen = w.extra("seen", {1});
    w.allow_missing("seen");
    EXPECT_THROW(w.extra("A", {3, 2}), std::invalid_argument);
    EXPECT_THROW(w.extra("qvel", {1}), std::invalid_argument);
    EXPECT_THROW(w.append_extra(ExtraDataset{}, std::vector<double>(6), 1), std::invalid_argument);
    EXPECT_THROW(w.append_extra(a, std::vector<double>(5), 1), std::invalid_argument);
    Data d(m);
    for (int row = 0; row < 4; ++row) {
      w.append_row(d, {Field::kQpos});
      std::vector<double> values(6);
      for (size_t i = 0; i < values.size(); ++i) values[i] = 10.0 * row + static_cast<double>(i);
      if (row % 2) {
        w.append_extra(a, values, 1);
      } else {
        w.append_extra("A", {2, 3}, values);
      }
      const double missing = row == 2 ? std::nan("") : 1.0;
      w.append_extra(seen, {&missing, 1}, 1);
    }
    file.commit();
  }
  Trajectory t = TrajectoryInput::open(dir + "/x.h5").single();
  std::vector<size_t> dims;
  const Matrix a = t.read_extra("A", &dims);
  EXPECT_THAT(dims, ElementsAre(4, 2, 3));
  for (int row = 0; row < 4; ++row) EXPECT_EQ(a(row, 4), 10.0 * row + 4);
  EXPECT_TRUE(std::isnan(t.read_extra("seen")(2, 0)));
}

TEST(TrajectoryExtras, RowsMustMatchQpos) {
  const Model m = joco::test::pendulum_model();
  const test::TempDir temp;
  const std::string& dir = temp.path();
  TrajectoryFileWriter file(dir + "/x.h5", m, WriterOptions{});
  TrajectoryWriter& w = file.trajectory();
  Data d(m);
  w.append_row(d, {Field::kQpos});
  w.append_row(d, {Field::kQpos});
  w.append_extra("A", {2}, std::vector<double>(2));
  EXPECT_THROW(w.close(), std::logic_error);
}

}  // namespace
}  // namespace joco::tools
