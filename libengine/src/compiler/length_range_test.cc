#include "compiler/length_range.h"

#include <gtest/gtest.h>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "support/test_support.h"

namespace joco {
namespace {

// The length-range simulation runs on the model being compiled with its own options (no contacts,
// gravity, ..., its own time step) and must leave the model's options as written; a muscle's range
// comes from the simulation, one on a limited joint from the limits.
TEST(LengthRange, SimulatesOnTheModelAndRestoresItsOptions) {
  const Model m = compile_mjcf(R"(
    <mujoco>
      <compiler angle="radian"><lengthrange timestep="0.01" uselimit="true"/></compiler>
      <option timestep="0.002" gravity="0 0 -9.81"/>
      <worldbody>
        <body>
          <joint name="first" type="hinge" axis="0 1 0" limited="true" range="-0.5 0.5"/>
          <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/>
          <body pos="0 0 -0.5">
            <joint name="limited" type="hinge" axis="0 1 0" limited="true" range="-1 0.5"/>
            <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/>
          </body>
        </body>
      </worldbody>
      <tendon>
        <fixed name="t"><joint joint="first" coef="0.2"/><joint joint="limited" coef="0.1"/></fixed>
      </tendon>
      <actuator>
        <muscle name="on_limits" joint="limited"/>
        <muscle name="simulated" tendon="t"/>
      </actuator>
    </mujoco>)",
                               "length_range.xml", test::testdata("compiler"));
  EXPECT_EQ(m.opt.timestep, 0.002);
  EXPECT_EQ(m.opt.disableflags, 0);
  EXPECT_EQ(m.actuator_lengthrange[0], -1);
  EXPECT_EQ(m.actuator_lengthrange[1], 0.5);
  EXPECT_LT(m.actuator_lengthrange[2], m.actuator_lengthrange[3]);
}

}  // namespace
// Found by mjcf_fuzz (testdata/fuzz/mjcf/): a mutated arm26 whose <size nstack> is too small for
// the compiler's length-range simulation; the stack's RuntimeError left compile_mjcf (and ended
// the fuzz target by std::terminate). It is the model's fault: an InputError naming the actuator.
TEST(LengthRange, AStackTooSmallForTheSimulationIsTheModelsError) {
  const std::string path = test::testdata("fuzz/mjcf/lengthrange_stack_too_small.mjcf");
  try {
    (void)compile_mjcf_file(path);
    FAIL() << "compiled";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("length range computation failed: the Data stack is too small"),
        std::string::npos)
        << e.what();
  }
}

}  // namespace joco
