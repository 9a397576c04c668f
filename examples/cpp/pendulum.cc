// joco's C++ API in one program: load a model (MJCF, URDF or .jmb), step it with a controller, read
// sensors, and run inverse dynamics on the state reached. Build it against an installed joco with
// this folder's CMakeLists.txt (find_package) or with pkg-config (README.md says how).
//
//   pendulum [MODEL]   (without MODEL: the pendulum below)
#include <joco/data.h>
#include <joco/error.h>
#include <joco/forward.h>
#include <joco/inverse.h>
#include <joco/mjcf.h>
#include <joco/model.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

// A hinged pole with a motor and a joint-angle sensor.
const char* const kPendulum = R"(
<mujoco model="pendulum">
  <option timestep="0.002"/>
  <worldbody>
    <body name="pole" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" damping="0.01"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.03" mass="1"/>
    </body>
  </worldbody>
  <actuator><motor name="torque" joint="hinge" gear="1" ctrlrange="-5 5" ctrllimited="true"/></actuator>
  <sensor><jointpos name="angle" joint="hinge"/></sensor>
</mujoco>)";

}  // namespace

int main(int argc, char** argv) {
  try {
    // The Model is immutable after loading; a Data holds one simulation's state and workspace.
    const joco::Model m = argc > 1 ? joco::compile_mjcf_file(argv[1])
                                   : joco::compile_mjcf(kPendulum, "pendulum.xml", ".");
    joco::Data d = joco::make_data(m);
    std::printf("%.*s: nq=%d nv=%d nu=%d nsensordata=%d\n", int(m.model_name().size()),
                m.model_name().data(), m.nq, m.nv, m.nu, m.nsensordata);

    // Lookups by name, as MuJoCo's mj_name2id.
    const int hinge = m.name_to_id(joco::kObjJoint, "hinge");

    // Start 1 rad from hanging, then a PD controller brings it back (ctrl is set before each step).
    if (hinge >= 0) d.qpos[m.jnt_qposadr[hinge]] = 1.0;
    for (int i = 0; i < 1000; ++i) {
      for (int u = 0; u < m.nu; ++u) d.ctrl[u] = -20 * d.qpos[0] - 2 * d.qvel[0];
      joco::step(m, d);
    }
    std::printf("after %.2f s: qpos[0]=%.4f", d.time, m.nq ? d.qpos[0] : 0.0);
    if (m.nsensordata) std::printf(" sensordata[0]=%.4f", d.sensordata[0]);
    std::printf("\n");

    // Inverse dynamics: forward gives qacc at this state; inverse gives back the forces that
    // produce it (qfrc_inverse = qfrc_applied + actuator forces + J'f of the constraints).
    joco::forward(m, d);
    std::vector<double> applied(d.qfrc_actuator, d.qfrc_actuator + m.nv);
    joco::inverse(m, d);
    double largest = 0;
    for (int i = 0; i < m.nv; ++i)
      largest = std::fmax(largest, std::fabs(d.qfrc_inverse[i] - applied[i]));
    std::printf("inverse dynamics gives back the actuator forces within %.2e\n", largest);
    return hinge >= 0 && std::fabs(d.qpos[0]) < 0.05 && largest < 1e-8 ? 0 : 1;
  } catch (const joco::Error& e) {
    // Every failure to load or use a model is a joco::Error with a message naming what is wrong.
    std::fprintf(stderr, "pendulum: %s\n", e.what());
    return 3;
  }
}
