// Compiles a model from text, steps it and checks that it falls: proof that the installed headers,
// library and package files work together.
#include <joco/forward.h>
#include <joco/mjcf.h>

#include <cstdio>

int main() {
  const joco::Model m = joco::compile_mjcf(
      "<mujoco><worldbody><body><freejoint/><geom size='0.1'/></body></worldbody></mujoco>",
      "inline.xml", ".");
  joco::Data d = joco::make_data(m);
  for (int i = 0; i < 100; ++i) joco::step(m, d);
  std::printf("z after 100 steps: %g\n", d.qpos[2]);
  return d.qpos[2] < -0.09 ? 0 : 1;
}
