// The tools write their HDF5 output uncompressed by default (deflating cost more than the rows'
// computation) and shuffled and deflated with --compress; the values are the same bits either way.
#include <hdf5.h>

#include <string>
#include <vector>

#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kTestdata = JOCO_TESTDATA_DIR;
const std::string kChain = kTestdata + "/inverse/chain.xml";

// The filters of dataset `name` in `file` (-1 when it cannot be opened), and its values.
int filters_of(const std::string& file, const std::string& name, std::vector<double>* values) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return -1;
  int n = -1;
  const hid_t ds = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  if (ds >= 0) {
    const hid_t dcpl = H5Dget_create_plist(ds);
    n = H5Pget_nfilters(dcpl);
    H5Pclose(dcpl);
    const hid_t space = H5Dget_space(ds);
    values->resize(static_cast<size_t>(H5Sget_simple_extent_npoints(space)));
    H5Sclose(space);
    if (H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values->data()) < 0) n = -1;
    H5Dclose(ds);
  }
  H5Fclose(f);
  return n;
}

TEST(CompressOption, OffByDefaultSameValuesWithIt) {
  const test::TempDir dir;
  const std::string sim = dir / "sim.h5", simz = dir / "simz.h5";
  const std::string inv = dir / "inv.h5", invz = dir / "invz.h5";
  const std::string ab = dir / "ab.h5", abz = dir / "abz.h5";
  const std::string base = "joco-simulate " + kChain + " --steps 40 --ctrl-noise 0.2 --seed 2 -o ";
  ASSERT_EQ(test::run(base + sim).exit_code, 0);
  ASSERT_EQ(test::run(base + simz + " --compress").exit_code, 0);
  ASSERT_EQ(test::run("joco-inverse " + kChain + " " + sim + " -o " + inv).exit_code, 0);
  ASSERT_EQ(test::run("joco-inverse " + kChain + " " + sim + " --compress -o " + invz).exit_code,
            0);
  const std::string d = "joco-derivatives " + kChain + " --states " + sim + " --rows 0-40:10 ";
  ASSERT_EQ(test::run(d + "-o " + ab).exit_code, 0);
  ASSERT_EQ(test::run(d + "--compress -o " + abz).exit_code, 0);
  int compared = 0;
  for (const auto& [plain, compressed, dataset] :
       {std::tuple{sim, simz, "qpos"}, std::tuple{sim, simz, "qacc"}, std::tuple{sim, simz, "ncon"},
        std::tuple{inv, invz, "qfrc_inverse"}, std::tuple{ab, abz, "A"}}) {
    SCOPED_TRACE(compressed + ":" + dataset);
    std::vector<double> a, b;
    EXPECT_EQ(filters_of(plain, dataset, &a), 0);
    EXPECT_EQ(filters_of(compressed, dataset, &b), 2);  // shuffle, deflate
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, b);
    ++compared;
  }
  EXPECT_EQ(compared, 5);
}

}  // namespace
}  // namespace joco::tools
