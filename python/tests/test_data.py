"""joco.Data and the functions: views, a step against the C++ engine (joco-simulate), states."""
import gc

import h5py
import numpy as np
import pytest

from conftest import CARTPOLE, HUMANOID, TOUCH, tool, import_joco

joco = import_joco()


def test_every_data_array_is_a_view():
    m = joco.Model.load(str(HUMANOID))
    d = joco.Data(m)
    for name in joco.Data.array_names:
        a = getattr(d, name)
        assert a.flags.writeable and (a.size == 0 or np.shares_memory(a, getattr(d, name))), name
    d.qpos[2] = 5.0
    joco.forward(m, d)
    assert d.xpos[1, 2] == pytest.approx(5.0)  # the torso follows the root's height


def test_data_keeps_its_model_alive():
    d = joco.Data(joco.Model.load(str(CARTPOLE)))
    gc.collect()
    for _ in range(3):
        joco.step(d.model, d)
    assert d.time == pytest.approx(0.03)
    assert d.model.nq == 2


@pytest.mark.parametrize("path", [HUMANOID, TOUCH], ids=lambda p: p.name)
def test_step_matches_joco_simulate(tmp_path, path):
    """Steps here and in joco-simulate (under a constant control where there are actuators): the
    same bits, the forward results of each row included."""
    m = joco.Model.load(str(path))
    steps = 5
    args = []
    if m.nu:
        with h5py.File(tmp_path / "ctrl.h5", "w") as f:
            f["ctrl"] = np.full((steps + 1, m.nu), 0.2)
        args = ["--ctrl", tmp_path / "ctrl.h5"]
    tool("simulate", path, "--steps", steps, *args, "--record",
         "qpos,qvel,sensordata,qacc,qfrc_constraint,ncon", "-o", tmp_path / "run.h5")
    run = joco.read_trajectory(str(tmp_path / "run.h5"), m)
    d = joco.Data(m)
    d.ctrl[:] = 0.2
    for t in range(steps):
        joco.step1(m, d)  # forward at row t's state: what joco-simulate writes in row t
        if m.nsensordata:
            np.testing.assert_array_equal(d.sensordata, run["sensordata"][t])
        np.testing.assert_array_equal(d.qacc, run["qacc"][t])
        np.testing.assert_array_equal(d.qfrc_constraint, run["qfrc_constraint"][t])
        assert d.ncon == run["ncon"][t]
        joco.step2(m, d)
        np.testing.assert_array_equal(d.qpos, run["qpos"][t + 1])
        np.testing.assert_array_equal(d.qvel, run["qvel"][t + 1])
    if path == TOUCH:
        assert run["ncon"].sum() > 0  # contacts were part of what was compared


def test_step_is_step1_then_step2():
    m = joco.Model.load(str(TOUCH))
    a, b = joco.Data(m), joco.Data(m)
    for _ in range(20):
        joco.step(m, a)
        joco.step1(m, b)
        joco.step2(m, b)
    np.testing.assert_array_equal(a.qpos, b.qpos)
    assert a.ncon > 0 and len(a.contact) == a.ncon
    assert set(a.contact.dtype.names) >= {"dist", "pos", "frame", "geom1", "geom2", "efc_address"}
    assert np.all(a.contact["dist"] < 1.0)


def test_state_get_set_and_keyframe():
    m = joco.Model.load(str(CARTPOLE))
    d = joco.Data(m)
    joco.reset_keyframe(m, d, "tilted")
    assert d.qpos[1] == 0.1
    saved = joco.get_state(m, d, joco.STATE_INTEGRATION)
    assert saved.size == joco.state_size(m, joco.STATE_INTEGRATION)
    for _ in range(10):
        joco.step(m, d)
    after = d.qpos.copy()
    joco.set_state(m, d, saved, joco.STATE_INTEGRATION)
    for _ in range(10):
        joco.step(m, d)
    np.testing.assert_array_equal(d.qpos, after)
    joco.reset(m, d)
    assert d.time == 0 and np.all(d.qpos == 0)


def test_inverse_recovers_the_applied_force():
    m = joco.Model.load(str(CARTPOLE))
    d = joco.Data(m)
    joco.reset_keyframe(m, d, 0)
    d.qfrc_applied[:] = [0.3, -0.1]
    joco.forward(m, d)
    joco.inverse(m, d)
    np.testing.assert_allclose(d.qfrc_inverse, [0.3, -0.1], atol=1e-9)
