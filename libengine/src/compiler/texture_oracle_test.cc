// Builtin textures against MuJoCo 2.2.2 on randomly drawn specifications: every builtin, mark and
// type, sizes from a single pixel up, colours in and beyond [0, 1], and rgb1 == rgb2 = k/255, where
// a byte depends on the last bits of the gradient's arithmetic. Every byte must be identical.
// JOCO_TEXTURE_SWEEP=n runs n models instead of the default few (a long sweep), with textures up
// to JOCO_TEXTURE_MAX_SIZE pixels (default 96) wide.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>

#include "joco/mjcf.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

// Loads MJCF text in MuJoCo through its virtual file system.
oracle::MjModelPtr load_mujoco_text(const std::string& xml, std::string* error) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  if (mj_makeEmptyFileVFS(vfs.get(), "model.xml", static_cast<int>(xml.size())) != 0) {
    *error = "cannot create the VFS file";
    return nullptr;
  }
  const int i = mj_findFileVFS(vfs.get(), "model.xml");
  std::memcpy(vfs->filedata[i], xml.data(), xml.size());
  char buffer[1000] = "";
  mjModel* m = mj_loadXML("model.xml", vfs.get(), buffer, sizeof(buffer));
  mj_deleteVFS(vfs.get());
  if (!m) *error = buffer;
  return oracle::MjModelPtr(m);
}

std::string number(double v) {
  char s[40];
  std::snprintf(s, sizeof(s), "%.17g", v);
  return s;
}

// A model of `count` random builtin textures.
std::string random_textures(std::mt19937& rng, int count, int max_size) {
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  auto colour = [&](int mode) {
    std::string s;
    for (int k = 0; k < 3; ++k) {
      double v = mode == 0 ? uniform(0, 1) : mode == 1 ? pick(256) / 255.0 : uniform(-2, 3);
      s += (k ? " " : "") + number(v);
    }
    return s;
  };
  static const char* kTypes[] = {"2d", "cube", "skybox"};
  static const char* kBuiltins[] = {"gradient", "checker", "flat"};
  static const char* kMarks[] = {"none", "edge", "cross", "random"};
  std::ostringstream xml;
  xml << "<mujoco><asset>\n";
  for (int i = 0; i < count; ++i) {
    const int type = pick(3);
    // small sizes often (they hit the edge cases), larger ones sometimes
    const int limit = pick(3) == 0 ? max_size : 6;
    const int width = 1 + pick(type == 0 ? limit : std::max(1, limit * 2 / 3));
    const int height = 1 + pick(limit);
    const int mode = pick(4);
    const std::string rgb1 = colour(mode == 3 ? 1 : mode);
    const std::string rgb2 = mode == 3 ? rgb1 : colour(pick(3));  // mode 3: equal k/255 colours
    xml << "<texture name=\"t" << i << "\" type=\"" << kTypes[type] << "\" builtin=\""
        << kBuiltins[pick(3)] << "\" mark=\"" << kMarks[pick(4)] << "\" random=\""
        << number(uniform(0, 1)) << "\" width=\"" << width << "\" height=\"" << height
        << "\" rgb1=\"" << rgb1 << "\" rgb2=\"" << rgb2 << "\" markrgb=\"" << colour(pick(3))
        << "\"/>\n";
  }
  xml << "</asset><worldbody/></mujoco>\n";
  return xml.str();
}

// Compares the texture fields; returns a description of the first difference, or "".
std::string compare_textures(const Model& m, const mjModel* mj) {
  if (m.ntex != mj->ntex || m.ntexdata != mj->ntexdata) {
    return "ntex/ntexdata " + std::to_string(m.ntex) + "/" + std::to_string(m.ntexdata) + " vs " +
           std::to_string(mj->ntex) + "/" + std::to_string(mj->ntexdata);
  }
  for (int t = 0; t < m.ntex; ++t) {
    if (m.tex_type[t] != mj->tex_type[t] || m.tex_width[t] != mj->tex_width[t] ||
        m.tex_height[t] != mj->tex_height[t] || m.tex_adr[t] != mj->tex_adr[t]) {
      return "texture t" + std::to_string(t) + ": type, size or address differ";
    }
    const int n = 3 * m.tex_width[t] * m.tex_height[t];
    for (int k = 0; k < n; ++k) {
      const int a = m.tex_rgb[m.tex_adr[t] + k], b = mj->tex_rgb[mj->tex_adr[t] + k];
      if (a != b) {
        const int pixel = k / 3;
        return "texture t" + std::to_string(t) + " pixel (row " +
               std::to_string(pixel / m.tex_width[t]) + ", col " +
               std::to_string(pixel % m.tex_width[t]) + ") channel " + std::to_string(k % 3) +
               ": joco " + std::to_string(a) + ", MuJoCo " + std::to_string(b);
      }
    }
  }
  return "";
}

TEST(TextureOracle, RandomBuiltinTexturesMatchMuJoCoByteForByte) {
  const char* sweep = std::getenv("JOCO_TEXTURE_SWEEP");
  const int models = sweep ? std::max(1, std::atoi(sweep)) : 4;
  int64_t bytes = 0;
  for (int seed = 0; seed < models; ++seed) {
    std::mt19937 rng(static_cast<uint32_t>(seed));
    const char* max_size = std::getenv("JOCO_TEXTURE_MAX_SIZE");
    const std::string xml = random_textures(rng, 60,
                                            !sweep     ? 40
                                            : max_size ? std::atoi(max_size)
                                                       : 96);
    std::string error;
    auto mj = load_mujoco_text(xml, &error);
    ASSERT_TRUE(mj) << "MuJoCo rejects seed " << seed << ": " << error;
    const Model m = compile_mjcf(xml, "<random textures>", test::testdata("textures"));
    const std::string difference = compare_textures(m, mj.get());
    ASSERT_EQ(difference, "") << "seed " << seed << "\n" << xml;
    oracle::count_compared(m.ntexdata);
    bytes += m.ntexdata;
  }
  std::cout << models << " models, " << bytes << " texture bytes identical\n";
}

}  // namespace
}  // namespace joco
