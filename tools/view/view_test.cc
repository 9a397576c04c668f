// joco-view run as users run it: the page's data (window.JOCO_REPLAY, schemas/replay.md) read back
// and checked against the model and the trajectory file: geometry, keyframes, poses, decimation,
// contacts, plots, rollouts; exit codes; the page-size goals.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "common/trajectory.h"
#include "decode/png.h"
#include "joco/mjcf.h"
#include "tools/json_reader.h"
#include "tools/tool_test_support.h"
#include "view/headless_browser.h"
#include "view/packing.h"
#include "view/page.h"
#include "view/replay.h"

namespace joco::tools::view {
namespace {

using test::Json;
using test::parse_json;

const std::string kModels = JOCO_TESTDATA_DIR;
const std::string kScene = kModels + "/view/scene.xml";

// The JSON of `window.JOCO_REPLAY = {...};` in a page.
Json replay_of(const std::string& page) {
  const std::string prefix = "window.JOCO_REPLAY = ";
  const size_t start = page.find(prefix);
  if (start == std::string::npos) throw std::runtime_error("no window.JOCO_REPLAY in the page");
  const size_t end = page.find("</script>", start);
  const size_t semicolon = page.rfind(';', end);
  return parse_json(page.substr(start + prefix.size(), semicolon - start - prefix.size()));
}

// Runs joco-view with `args` writing `page`, and reads the page's data.
Json view(const std::string& args, const std::string& page) {
  const auto r = test::run("joco-view " + args + " -o " + page);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return replay_of(joco::test::read_text(page));
}

std::vector<uint8_t> unbase64(const std::string& text) {
  std::vector<uint8_t> out;
  uint32_t bits = 0;
  int n = 0;
  for (const char c : text) {
    const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char* p = std::strchr(digits, c);
    if (c == '=' || p == nullptr) break;
    bits = bits << 6 | uint32_t(p - digits);
    if ((n += 6) >= 8) {
      n -= 8;
      out.push_back(static_cast<uint8_t>(bits >> n));
    }
  }
  return out;
}

template <typename T>
std::vector<T> unpack(const Json& b64) {
  const std::vector<uint8_t> bytes = unbase64(b64.string);
  EXPECT_EQ(bytes.size() % sizeof(T), 0u);
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

const Json* plot(const Json& trajectory, const std::string& name) {
  for (const Json& p : trajectory["plots"].array) {
    if (p["name"].string == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> strings(const Json& array) {
  std::vector<std::string> out;
  for (const Json& s : array.array) out.push_back(s.string);
  return out;
}

std::vector<double> numbers(const Json& array) {
  std::vector<double> out;
  for (const Json& n : array.array) out.push_back(n.number);
  return out;
}

TEST(Base64, EncodesRfc4648Vectors) {
  const auto b64 = [](const std::string& s) {
    return base64({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
  };
  EXPECT_EQ(b64(""), "");
  EXPECT_EQ(b64("f"), "Zg==");
  EXPECT_EQ(b64("fo"), "Zm8=");
  EXPECT_EQ(b64("foo"), "Zm9v");
  EXPECT_EQ(b64("foob"), "Zm9vYg==");
  EXPECT_EQ(b64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");
  // float32 1 is 00 00 80 3f little-endian; uint32 1 is 01 00 00 00.
  EXPECT_EQ(base64_float32(std::vector<double>{1.0}), "AACAPw==");
  EXPECT_EQ(base64_uint32(std::vector<uint32_t>{1}), "AQAAAA==");
}

// The PNG encoder's output read back by joco's own texture loader (the compiler's PNG decoder):
// the same pixels.
TEST(EncodePng, ReadsBackAsTheSamePixelsThroughTheCompiler) {
  const test::TempDir temp;
  const int w = 37, h = 23;  // odd sizes; gradients, a sharp edge and noise exercise every filter
  std::vector<uint8_t> rgb(size_t(w) * h * 3);
  uint32_t seed = 12345;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      seed = seed * 1664525u + 1013904223u;
      uint8_t* p = &rgb[(size_t(y) * w + x) * 3];
      p[0] = static_cast<uint8_t>(x * 7);
      p[1] = static_cast<uint8_t>(x < w / 2 ? y * 11 : 255 - y * 3);
      p[2] = static_cast<uint8_t>(y > h / 2 ? seed >> 24 : 128);
    }
  }
  const std::vector<uint8_t> png = encode_png_rgb(rgb, w, h);
  const std::string png_path = temp / "t.png", xml = temp / "t.xml";
  FILE* f = std::fopen(png_path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(png.data(), 1, png.size(), f);
  std::fclose(f);
  f = std::fopen(xml.c_str(), "w");
  std::fputs(
      "<mujoco><asset><texture name='t' type='2d' file='t.png'/></asset>"
      "<worldbody><geom size='1'/></worldbody></mujoco>",
      f);
  std::fclose(f);
  const Model m = compile_mjcf_file(xml);
  ASSERT_EQ(m.ntex, 1);
  ASSERT_EQ(m.tex_width[0], w);
  ASSERT_EQ(m.tex_height[0], h);
  EXPECT_TRUE(std::equal(rgb.begin(), rgb.end(), m.tex_rgb + m.tex_adr[0]));
}

TEST(Decimation, AtMostFpsFramesPerSecond) {
  EXPECT_EQ(decimation(0.002, 60, false), 9);  // 500 rows/s: 8.3 per frame
  EXPECT_EQ(decimation(0.005, 60, false), 4);  // the humanoid's 200 rows/s
  EXPECT_EQ(decimation(1.0 / 60, 60, false), 1);
  EXPECT_EQ(decimation(0.1, 60, false), 1);   // fewer rows than frames: every row
  EXPECT_EQ(decimation(0.002, 60, true), 1);  // --all-rows
  EXPECT_EQ(decimation(0, 60, false), 1);     // one row, or times that do not advance
}

TEST(DatasetColumns, NamesJointsDofsActuatorsSensorsBodies) {
  const Model m = compile_mjcf_file(kScene);
  EXPECT_EQ(dataset_columns(m, "qpos", 8),
            (std::vector<std::string>{"ball.x", "ball.y", "ball.z", "ball.qw", "ball.qx", "ball.qy",
                                      "ball.qz", "swing"}));
  EXPECT_EQ(dataset_columns(m, "qfrc_inverse", 7),
            (std::vector<std::string>{"ball.vx", "ball.vy", "ball.vz", "ball.wx", "ball.wy",
                                      "ball.wz", "swing"}));
  EXPECT_EQ(dataset_columns(m, "ctrl", 1), (std::vector<std::string>{"swing"}));
  EXPECT_EQ(dataset_columns(m, "sensordata", 4),
            (std::vector<std::string>{"swing_angle", "ball_pos[0]", "ball_pos[1]", "ball_pos[2]"}));
  EXPECT_EQ(dataset_columns(m, "xfrc_applied", 18)[6], "ball.fx");
  EXPECT_EQ(dataset_columns(m, "ncon", 1), (std::vector<std::string>{"ncon"}));
  // A width that does not fit the model: numbered columns.
  EXPECT_EQ(dataset_columns(m, "qpos", 2), (std::vector<std::string>{"qpos[0]", "qpos[1]"}));
  EXPECT_EQ(dataset_columns(m, "my_extra", 2),
            (std::vector<std::string>{"my_extra[0]", "my_extra[1]"}));
}

TEST(AssemblePage, ReplacesEachPlaceholderLineAndEscapesScriptEnds) {
  const std::string page = assemble_page(
      "<head>\n  /*@JOCO_THREE@*/\n<style>\n/*@JOCO_VIEWER_CSS@*/\n</style>\n"
      "/*@JOCO_VIEWER_JS@*/\n/*@JOCO_REPLAY@*/\n</head>\n",
      "var THREE = '</script>';", "a{}", "go();", "{\"title\": \"a</b\"}\n");
  EXPECT_EQ(page,
            "<head>\nvar THREE = '<\\/script>';\n<style>\na{}\n</style>\ngo();\n"
            "window.JOCO_REPLAY = {\"title\": \"a<\\/b\"};\n</head>\n");
  EXPECT_THROW(assemble_page("/*@JOCO_THREE@*/\n", "", "", "", "{}"), std::logic_error);
}

// Without a trajectory: the initial state and every keyframe, and the whole model.
TEST(JocoView, ModelAloneShowsItsInitialStateAndKeyframes) {
  const test::TempDir temp;
  const Json r = view(kScene, temp / "scene.html");
  EXPECT_EQ(r["version"].number, 1);
  EXPECT_EQ(r["title"].string, "view scene");
  const Json& model = r["model"];
  EXPECT_EQ(model["name"].string, "view scene");
  EXPECT_EQ(model["nbody"].number, 3);
  ASSERT_EQ(model["bodies"].array.size(), 3u);
  EXPECT_EQ(model["bodies"].array[1]["name"].string, "ball");
  EXPECT_EQ(model["bodies"].array[2]["parent"].number, 0);

  std::vector<std::string> types;
  for (const Json& g : model["geoms"].array) types.push_back(g["type"].string);
  EXPECT_EQ(types, (std::vector<std::string>{"plane", "hfield", "sphere", "capsule", "box",
                                             "cylinder", "ellipsoid", "mesh"}));
  const Json& floor = model["geoms"].array[0];
  EXPECT_EQ(floor["material"].number, 0);
  EXPECT_FLOAT_EQ(model["geoms"].array[2]["rgba"].array[1].number,
                  0.2f);  // the red material's colour
  EXPECT_FLOAT_EQ(model["geoms"].array[4]["rgba"].array[1].number, 0.7f);  // the box's own rgba
  EXPECT_EQ(model["geoms"].array[5]["group"].number, 2);
  EXPECT_EQ(model["geoms"].array[7]["mesh"].number, 0);
  EXPECT_EQ(model["geoms"].array[1]["hfield"].number, 0);

  ASSERT_EQ(model["meshes"].array.size(), 1u);
  const Json& mesh = model["meshes"].array[0];
  EXPECT_EQ(mesh["nv"].number, 4);
  EXPECT_EQ(mesh["nf"].number, 4);
  EXPECT_EQ(unpack<float>(mesh["vertices"]).size(), 12u);
  for (const uint32_t v : unpack<uint32_t>(mesh["faces"])) EXPECT_LT(v, 4u);

  ASSERT_EQ(model["hfields"].array.size(), 1u);
  const Json& hf = model["hfields"].array[0];
  EXPECT_EQ(hf["nrow"].number, 9);
  const std::vector<float> elevation = unpack<float>(hf["data"]);
  ASSERT_EQ(elevation.size(), 81u);
  EXPECT_FLOAT_EQ(elevation[4 * 9 + 4], 1);  // the bump's top, normalised to 0..1

  ASSERT_EQ(model["textures"].array.size(), 1u);
  const Json& tex = model["textures"].array[0];
  EXPECT_EQ(tex["type"].string, "2d");
  EXPECT_EQ(tex["width"].number, 64);
  const std::vector<uint8_t> png = unbase64(tex["png"].string);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(std::string(png.begin() + 1, png.begin() + 4), "PNG");
  EXPECT_EQ(model["materials"].array[0]["texture"].number, 0);
  EXPECT_EQ(model["lights"].array.size(), 1u);
  EXPECT_TRUE(model["lights"].array[0]["directional"].boolean);
  ASSERT_EQ(model["cameras"].array.size(), 1u);
  EXPECT_EQ(model["cameras"].array[0]["name"].string, "front");
  EXPECT_EQ(model["cameras"].array[0]["mode"].string, "fixed");
  EXPECT_EQ(model["sites"].array.size(), 1u);
  ASSERT_EQ(model["joints"].array.size(), 2u);
  EXPECT_EQ(model["joints"].array[1]["type"].string, "hinge");
  EXPECT_EQ(model["joints"].array[1]["axis"].array[1].number, 1);
  ASSERT_EQ(model["keyframes"].array.size(), 2u);
  EXPECT_EQ(model["keyframes"].array[1]["time"].number, 1);

  const auto& ts = r["trajectories"].array;
  ASSERT_EQ(ts.size(), 3u);
  EXPECT_EQ(ts[0]["name"].string, "initial state");
  EXPECT_EQ(ts[1]["name"].string, "keyframe raised");
  EXPECT_EQ(ts[2]["name"].string, "keyframe 1");
  const double ball_z[] = {1, 2, 1};  // the free joint's qpos is the ball's position
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(ts[k]["source"].string, "model");
    EXPECT_EQ(ts[k]["nframes"].number, 1);
    EXPECT_EQ(ts[k]["contacts"].kind, Json::kNull);
    const std::vector<float> xpos = unpack<float>(ts[k]["xpos"]);
    ASSERT_EQ(xpos.size(), 9u);
    EXPECT_EQ(xpos[3 + 2], ball_z[k]) << k;
    EXPECT_EQ(unpack<float>(ts[k]["xquat"]).size(), 12u);
    EXPECT_EQ(unpack<float>(ts[k]["com"]).size(), 3u);
    ASSERT_NE(plot(ts[k], "qpos"), nullptr);
  }
  EXPECT_EQ(unpack<float>(ts[2]["time"])[0], 1);
  EXPECT_EQ(unpack<float>(ts[1]["xpos"])[3], 0);
  EXPECT_EQ(unpack<float>(ts[2]["xpos"])[3], 0.5f);
}

// A trajectory: every 9th row at 60 frames/s of a 500 Hz file, the poses being those the file's
// qpos gives, the contact table's contacts at the shown rows, and every dataset as a plot.
TEST(JocoView, TrajectoryPosesContactsAndPlotsAtTheShownRows) {
  const test::TempDir temp;
  auto run = test::run("joco-simulate " + kScene + " --steps 400 --ctrl-noise 0.5 --contacts -o " +
                       temp / "run.h5");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json r = view(kScene + " " + temp / "run.h5", temp / "run.html");
  EXPECT_EQ(r["title"].string, "view scene \u2014 " + temp / "run.h5");
  ASSERT_EQ(r["trajectories"].array.size(), 1u);
  const Json& t = r["trajectories"].array[0];
  EXPECT_EQ(t["name"].string, "/");
  EXPECT_EQ(t["source"].string, temp / "run.h5" + ":/");

  Trajectory file = TrajectoryInput::open(temp / "run.h5").single();
  const size_t rows = file.rows();
  ASSERT_EQ(rows, 401u);
  const int step = 9;
  const size_t frames = (rows + step - 1) / step;
  EXPECT_EQ(t["decimation"].number, step);
  ASSERT_EQ(t["nframes"].number, frames);
  const Matrix time = file.read(Field::kTime), qpos = file.read(Field::kQpos);
  const std::vector<float> ftime = unpack<float>(t["time"]), xpos = unpack<float>(t["xpos"]),
                           xquat = unpack<float>(t["xquat"]), com = unpack<float>(t["com"]);
  ASSERT_EQ(ftime.size(), frames);
  ASSERT_EQ(xpos.size(), frames * 9);
  ASSERT_EQ(xquat.size(), frames * 12);
  ASSERT_EQ(com.size(), frames * 3);
  for (size_t f = 0; f < frames; ++f) {
    const size_t row = f * step;
    EXPECT_EQ(ftime[f], static_cast<float>(time(row, 0)));
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(xpos[f * 9 + 3 + i], static_cast<float>(qpos(row, i))) << f;  // the free ball
      EXPECT_NEAR(xquat[f * 12 + 4 + i], qpos(row, 3 + i), 1e-6) << f;
    }
    EXPECT_EQ(xpos[f * 9 + 6], -1.0f);  // the arm's body stays where it hangs
  }
  EXPECT_LT(xpos[(frames - 1) * 9 + 5], 0.5f);  // the ball has fallen

  // Contacts: as many per frame as the file's ncon at the row; world forces whose component along
  // the contact normal is the normal force, pushing the ball up off the floor.
  const Matrix ncon = file.read(Field::kNcon);
  const std::vector<ContactRecord> contacts = file.read_contacts();
  const std::vector<uint32_t> shown_ncon = unpack<uint32_t>(t["contacts"]["ncon"]);
  const std::vector<float> cpos = unpack<float>(t["contacts"]["pos"]),
                           cforce = unpack<float>(t["contacts"]["force"]);
  ASSERT_EQ(shown_ncon.size(), frames);
  size_t k = 0, compared = 0;
  for (size_t f = 0; f < frames; ++f) {
    const size_t row = f * step;
    ASSERT_EQ(shown_ncon[f], ncon(row, 0)) << f;
    for (const ContactRecord& c : contacts) {
      if (c.row != int64_t(row)) continue;
      ASSERT_LT(k, cforce.size() / 3);
      for (int i = 0; i < 3; ++i) EXPECT_EQ(cpos[3 * k + i], static_cast<float>(c.pos[i]));
      double along_normal = 0;
      for (int i = 0; i < 3; ++i) along_normal += cforce[3 * k + i] * c.frame[i];
      EXPECT_NEAR(along_normal, c.force[0], 1e-5 * (1 + std::abs(c.force[0])));
      EXPECT_EQ(c.geom1, 0);  // floor, then ball: the force on the ball points up
      EXPECT_GE(cforce[3 * k + 2], 0);
      ++k;
      compared += c.force[0] > 0;
    }
  }
  EXPECT_EQ(k, cpos.size() / 3);
  EXPECT_GT(compared, 0u);

  // Plots: every per-row dataset of the file but time, at the shown rows, with named columns.
  std::vector<std::string> names;
  for (const Json& p : t["plots"].array) names.push_back(p["name"].string);
  std::vector<std::string> expected;
  for (const Field f : file.fields()) {
    if (f != Field::kTime) expected.push_back(field_info(f).name);
  }
  EXPECT_EQ(names, expected);
  for (const char* n : {"qpos", "qvel", "ctrl", "sensordata", "qfrc_actuator", "ncon"}) {
    EXPECT_NE(plot(t, n), nullptr) << n;
  }
  const Json& sensors = *plot(t, "sensordata");
  EXPECT_EQ(strings(sensors["columns"]),
            (std::vector<std::string>{"swing_angle", "ball_pos[0]", "ball_pos[1]", "ball_pos[2]"}));
  const Matrix sensordata = file.read(Field::kSensordata);
  const std::vector<float> values = unpack<float>(sensors["values"]);
  ASSERT_EQ(values.size(), frames * 4);
  for (size_t f = 0; f < frames; ++f) {
    for (size_t c = 0; c < 4; ++c) {
      EXPECT_EQ(values[f * 4 + c], static_cast<float>(sensordata(f * step, c)));
    }
  }
}

// Datasets that are not trajectory fields (joco-simulate --record's Data arrays) are plotted too,
// with numbered columns, at the shown rows.
TEST(JocoView, RecordedDataArraysArePlottedToo) {
  const test::TempDir temp;
  auto run = test::run("joco-simulate " + kScene + " --steps 50 --record qpos,xpos,energy -o " +
                       temp / "run.h5");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json r = view(kScene + " " + temp / "run.h5", temp / "run.html");
  const Json& t = r["trajectories"].array.at(0);
  ASSERT_NE(plot(t, "xpos"), nullptr);
  const Json& xpos = *plot(t, "xpos");
  ASSERT_EQ(xpos["columns"].array.size(), 9u);  // nbody x 3
  EXPECT_EQ(xpos["columns"].array[5].string, "xpos[5]");
  Trajectory file = TrajectoryInput::open(temp / "run.h5").single();
  const Matrix expected = file.read_extra("xpos");
  const std::vector<float> values = unpack<float>(xpos["values"]);
  ASSERT_EQ(values.size(), 6u * 9);  // rows 0, 9, ..., 45
  for (size_t f = 0; f < 6; ++f) {
    for (size_t c = 0; c < 9; ++c) {
      EXPECT_EQ(values[f * 9 + c], static_cast<float>(expected(f * 9, c)));
    }
  }
  ASSERT_NE(plot(t, "energy"), nullptr);
  EXPECT_EQ(plot(t, "energy")->operator[]("columns").array.size(), 2u);
  EXPECT_EQ(plot(t, "model"), nullptr);  // groups are not datasets
}

// Mocap bodies: where the file has mocap_pos and mocap_quat (joco-simulate --record's, here
// rewritten to move), the mocap body's pose at each frame is the row's; without them it keeps its
// initial place. A mocap_pos of another shape is an input error naming it.
TEST(JocoView, MocapBodiesFollowTheFilesMocapPoses) {
  const test::TempDir temp;
  const std::string model = kModels + "/view/mocap.xml", file = temp / "run.h5";
  auto run = test::run("joco-simulate " + model +
                       " --steps 20 --record default,mocap_pos,mocap_quat -o " + file);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json still = view(model + " " + file + " --all-rows", temp / "still.html");
  // Row r: the box at (0.5 + 0.1 r, 0, 1 + 0.05 r), turned by 0.1 r about z.
  std::vector<double> pos(21 * 3), quat(21 * 4);
  for (int r = 0; r <= 20; ++r) {
    pos[3 * r] = 0.5 + 0.1 * r;
    pos[3 * r + 1] = 0;
    pos[3 * r + 2] = 1 + 0.05 * r;
    quat[4 * r] = std::cos(0.05 * r);
    quat[4 * r + 1] = quat[4 * r + 2] = 0;
    quat[4 * r + 3] = std::sin(0.05 * r);
  }
  auto rewrite = [&](const char* name, const std::vector<double>& values) {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
    ASSERT_GE(ds, 0) << name;
    EXPECT_GE(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
    H5Dclose(ds);
    H5Fclose(f);
  };
  rewrite("mocap_pos", pos);
  rewrite("mocap_quat", quat);
  const Json moved = view(model + " " + file + " --all-rows", temp / "moved.html");
  const std::vector<float> xpos0 = unpack<float>(still["trajectories"].array.at(0)["xpos"]),
                           xpos = unpack<float>(moved["trajectories"].array.at(0)["xpos"]),
                           xquat = unpack<float>(moved["trajectories"].array.at(0)["xquat"]);
  const size_t nbody = 3, target = 1;
  ASSERT_EQ(moved["model"]["bodies"].array.at(target)["mocap"].kind, Json::kBool);
  EXPECT_TRUE(moved["model"]["bodies"].array.at(target)["mocap"].boolean);
  ASSERT_EQ(xpos.size(), 21 * nbody * 3);
  ASSERT_EQ(xpos0.size(), xpos.size());
  for (size_t r = 0; r <= 20; ++r) {
    const size_t b = r * nbody + target;
    // The recorded poses (unchanged): the body's own place.
    EXPECT_EQ(xpos0[3 * b], 0.5f);
    EXPECT_EQ(xpos0[3 * b + 2], 1.0f);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(xpos[3 * b + i], pos[3 * r + i], 1e-6) << r;
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(xquat[4 * b + i], quat[4 * r + i], 1e-6) << r;
  }

  // A mocap_pos that does not fit: an input error naming the dataset.
  const std::string bad = temp / "bad.h5";
  auto add_mocap_pos_6x2 = [&] {  // 6 rows of 2 values
    const hid_t f = H5Fopen(bad.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const hsize_t dims[2] = {6, 2};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t ds =
        H5Dcreate2(f, "mocap_pos", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const std::vector<double> zeros(12, 0.0);
    EXPECT_GE(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data()), 0);
    H5Dclose(ds);
    H5Sclose(space);
    H5Fclose(f);
  };
  run = test::run("joco-simulate " + kScene + " --steps 5 -o " + bad);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  add_mocap_pos_6x2();
  // (scene.xml has no mocap body: the dataset is only plotted.)
  EXPECT_EQ(test::run("joco-view " + kScene + " " + bad + " -o " + temp / "ok.html").exit_code, 0);
  run = test::run("joco-simulate " + model + " --steps 5 -o " + bad);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  add_mocap_pos_6x2();
  run = test::run("joco-view " + model + " " + bad + " -o " + temp / "x.html");
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_NE(run.err.find("mocap_pos"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(temp / "x.html"));
}

// The visual settings the page draws (testdata/view/visual.xml): fog in length units, the haze,
// skybox, cube and 2d textures as PNGs, spot and directional lights with their cutoff, exponent
// and attenuation.
TEST(JocoView, VisualSettingsTexturesAndLightsAreInTheData) {
  const test::TempDir temp;
  const Json r = view(kModels + "/view/visual.xml", temp / "visual.html");
  const Json& m = r["model"];
  const double extent = m["stat"]["extent"].number;
  ASSERT_GT(extent, 0);
  const Json& visual = m["visual"];
  EXPECT_NEAR(visual["fog"]["start"].number, 0.5 * extent, 1e-5 * extent);
  EXPECT_NEAR(visual["fog"]["end"].number, 2 * extent, 1e-5 * extent);
  EXPECT_EQ(numbers(visual["fog"]["rgba"]), (std::vector<double>{0, 1, 0, 1}));
  EXPECT_NEAR(visual["haze"].number, 0.3, 1e-7);  // MuJoCo's default
  EXPECT_EQ(visual["headlight"]["active"].number, 0);
  ASSERT_EQ(m["textures"].array.size(), 3u);
  std::vector<std::string> types;
  for (const Json& t : m["textures"].array) {
    types.push_back(t["type"].string);
    EXPECT_FALSE(t["png"].string.empty()) << t["name"].string;
  }
  EXPECT_EQ(types, (std::vector<std::string>{"skybox", "cube", "2d"}));
  ASSERT_EQ(m["lights"].array.size(), 2u);
  const Json &spot = m["lights"].array[0], &sun = m["lights"].array[1];
  EXPECT_FALSE(spot["directional"].boolean);
  EXPECT_TRUE(sun["directional"].boolean);
  EXPECT_EQ(spot["cutoff"].number, 20);
  EXPECT_EQ(spot["exponent"].number, 20);
  EXPECT_EQ(numbers(spot["attenuation"]), (std::vector<double>{1, 0.1, 0}));
}

TEST(JocoView, FpsAndAllRowsChooseTheRowsShown) {
  const test::TempDir temp;
  auto run = test::run("joco-simulate " + kScene + " --steps 100 -o " + temp / "run.h5");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  Json r = view(kScene + " " + temp / "run.h5 --all-rows", temp / "all.html");
  EXPECT_EQ(r["trajectories"].array[0]["decimation"].number, 1);
  EXPECT_EQ(r["trajectories"].array[0]["nframes"].number, 101);
  r = view(kScene + " " + temp / "run.h5 --fps 10", temp / "ten.html");
  EXPECT_EQ(r["trajectories"].array[0]["decimation"].number, 50);
  EXPECT_EQ(r["trajectories"].array[0]["nframes"].number, 3);  // rows 0, 50, 100
  const std::vector<float> time = unpack<float>(r["trajectories"].array[0]["time"]);
  ASSERT_EQ(time.size(), 3u);
  for (int f = 0; f < 3; ++f) EXPECT_NEAR(time[f], 0.1 * f, 1e-6);
}

TEST(JocoView, BatchFilesShowEveryRolloutOrThoseChosen) {
  const test::TempDir temp;
  auto run = test::run("joco-simulate " + kScene + " --steps 30 --batch 3 --ctrl-noise 1 -o " +
                       temp / "batch.h5");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string batch = temp / "batch.h5";
  Json r = view(kScene + " " + batch, temp / "all.html");
  std::vector<std::string> names;
  for (const Json& t : r["trajectories"].array) names.push_back(t["name"].string);
  EXPECT_EQ(names,
            (std::vector<std::string>{"/rollout_00000", "/rollout_00001", "/rollout_00002"}));
  EXPECT_EQ(r["trajectories"].array[1]["source"].string, batch + ":/rollout_00001");
  for (const Json& t : r["trajectories"].array) EXPECT_EQ(t["nframes"].number, 4);  // rows 0-27

  r = view(kScene + " " + batch + " --rollouts 2,0", temp / "two.html");
  names.clear();
  for (const Json& t : r["trajectories"].array) names.push_back(t["name"].string);
  EXPECT_EQ(names, (std::vector<std::string>{"/rollout_00002", "/rollout_00000"}));

  r = view(kScene + " " + batch + ":/rollout_00001", temp / "one.html");
  ASSERT_EQ(r["trajectories"].array.size(), 1u);
  EXPECT_EQ(r["trajectories"].array[0]["name"].string, "/rollout_00001");

  const auto missing =
      test::run("joco-view " + kScene + " " + batch + " --rollouts 1-3 -o " + temp / "x.html");
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_NE(missing.err.find("no rollout 3"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(temp / "x.html"));
}

TEST(JocoView, BadInputsAndUsageHaveTheirExitCodes) {
  const test::TempDir temp;
  const std::string out = " -o " + temp / "x.html";
  auto r = test::run("joco-view " + temp / "missing.xml" + out);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("missing.xml"), std::string::npos) << r.err;
  // A trajectory of another model: its qpos does not fit.
  r = test::run("joco-simulate " + kModels + "/mujoco/model/humanoid/humanoid.xml --steps 3 -o " +
                temp / "humanoid.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-view " + kScene + " " + temp / "humanoid.h5" + out);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("nq = 28"), std::string::npos) << r.err;
  r = test::run("joco-view " + kScene + " " + temp / "missing.h5" + out);
  EXPECT_EQ(r.exit_code, 3);
  for (const char* args :
       {" --fps 0", " --all-rows --fps 30", " --rollouts 2-1", " --rollouts x", " --nonsense"}) {
    r = test::run("joco-view " + kScene + args + out);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(temp / "x.html"));
}

// The model as every tool takes it: MJCF, its .jmb (the same page, byte for byte), a URDF, or
// standard input.
TEST(JocoView, ReadsMjcfJmbUrdfAndStandardInput) {
  const test::TempDir temp;
  auto r = test::run("joco-compile " + kScene + " -o " + temp / "scene.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(test::run("joco-view " + kScene + " -o " + temp / "xml.html").exit_code, 0);
  ASSERT_EQ(test::run("joco-view " + temp / "scene.jmb" + " -o " + temp / "jmb.html").exit_code, 0);
  r = test::run("joco-view - -o " + temp / "stdin.html", temp / "scene.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string xml = joco::test::read_text(temp / "xml.html");
  EXPECT_EQ(xml, joco::test::read_text(temp / "jmb.html"));
  EXPECT_EQ(xml, joco::test::read_text(temp / "stdin.html"));
  const Json urdf = view(kModels + "/urdf/ur5/ur5_robot.urdf", temp / "ur5.html");
  EXPECT_GT(urdf["model"]["nbody"].number, 6);
  EXPECT_GT(urdf["model"]["geoms"].array.size(), 6u);
}

TEST(JocoView, WritesThePageToStandardOutputByDefault) {
  const auto r = test::run("joco-view " + kScene);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string start = r.out.substr(0, 15);
  for (char& c : start) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(start, "<!doctype html>") << r.out.substr(0, 100);
  EXPECT_EQ(replay_of(r.out)["trajectories"].array.size(), 3u);
}

// The page holds everything it needs: three.js and the viewer inline, no <script src> or
// stylesheet link to fetch, and no "</script" inside a script's text.
TEST(JocoView, PageIsSelfContained) {
  const test::TempDir temp;
  const auto r = test::run("joco-view " + kScene + " -o " + temp / "p.html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = joco::test::read_text(temp / "p.html");
  EXPECT_NE(page.find("REVISION"), std::string::npos);       // three.js
  EXPECT_NE(page.find("OrbitControls"), std::string::npos);  // its orbit controls
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("/*@JOCO_"), std::string::npos);
  // Every <script> ends at the first "</script>" after it: count both.
  size_t opens = 0, closes = 0;
  for (size_t p = page.find("<script"); p != std::string::npos; p = page.find("<script", p + 1)) {
    ++opens;
  }
  for (size_t p = page.find("</script>"); p != std::string::npos;
       p = page.find("</script>", p + 1)) {
    ++closes;
  }
  EXPECT_EQ(opens, closes);
  EXPECT_GE(opens, 3u);
}

// The goals: the humanoid demo (scripts/demo: 400 steps, with its contacts) gives a page
// under 2 MB, 10,000 steps one under 10 MB.
TEST(JocoView, HumanoidPagesStayUnderTheirSizeGoals) {
  const test::TempDir temp;
  const std::string humanoid = kModels + "/mujoco/model/humanoid/humanoid.xml";
  for (const auto& [steps, limit] : {std::pair{400, 2'000'000}, std::pair{10000, 10'000'000}}) {
    const std::string run = temp / ("run" + std::to_string(steps) + ".h5");
    const std::string page = temp / ("page" + std::to_string(steps) + ".html");
    auto r = test::run("joco-simulate " + humanoid + " --steps " + std::to_string(steps) +
                       " --ctrl-noise 0.1 --seed 1 --contacts -o " + run);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run("joco-view " + humanoid + " " + run + " -o " + page);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto size = std::filesystem::file_size(page);
    EXPECT_LT(size, size_t(limit)) << steps << " steps";
    std::cout << steps << " steps: page of " << size << " bytes\n";
    EXPECT_EQ(replay_of(joco::test::read_text(page))["trajectories"].array[0]["nframes"].number,
              (steps + 1 + 3) / 4);  // 200 rows/s at 60 frames/s: every 4th row
  }
}

// --png: a still of the page by the headless browser, the size asked for, the model drawn (not one
// colour), and no page written unless -o asks for one too.
TEST(JocoView, PngWritesAStillOfThePage) {
  const BrowserLookup browser = find_browser();
  if (browser.path.empty()) GTEST_SKIP() << browser.why_absent;
  const test::TempDir temp;
  const auto r = test::run("joco-view " + kScene + " --png " + temp / "still.png" +
                           " --time 0 --size 320x200 --camera front");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 200);
  const compiler::RgbImage image =
      compiler::decode_png(joco::test::read_file(temp / "still.png"), "still.png");
  EXPECT_EQ(image.width, 320);
  EXPECT_EQ(image.height, 200);
  size_t differing = 0;
  for (size_t i = 0; i + 3 <= image.rgb.size(); i += 3) {
    differing += !std::equal(image.rgb.begin() + i, image.rgb.begin() + i + 3, image.rgb.begin());
  }
  EXPECT_GT(differing, image.rgb.size() / 3 / 10);  // more than a tenth of the pixels
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(temp.path()),
                          std::filesystem::directory_iterator()),
            1);  // the still alone: no page, no temporary file left
}

TEST(JocoView, PngWithoutABrowserFailsSayingWhy) {
  const test::TempDir temp;
  const auto r = test::run("JOCO_CHROMIUM=" + temp / "no-browser" + " joco-view " + kScene +
                           " --png " + temp / "still.png");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find("--png needs a headless Chromium"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("JOCO_CHROMIUM"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(temp / "still.png"));
  for (const char* args : {" --time 1", " --size 20x20", " --camera front",
                           " --png x.png --size 20", " --png x.png --time -1"}) {
    EXPECT_EQ(test::run("joco-view " + kScene + args + " -o " + temp / "x.html").exit_code, 2)
        << args;
  }
}

}  // namespace
}  // namespace joco::tools::view
