"""joco.rollout against joco-simulate on the same inputs (exactly), threads, derivatives."""
import h5py
import numpy as np
import pytest

from conftest import CARTPOLE, HUMANOID, TOUCH, tool, import_joco

joco = import_joco()


def simulate_batch(tmp_path, path, m, init, ctrl):
    """The same batch through joco-simulate: initial states written with joco.write_trajectory
    (one rollout group each), controls stacked [B, T, nu] with h5py."""
    B, T = ctrl.shape[:2]
    nq, nv = m.nq, m.nv
    joco.write_trajectory(str(tmp_path / "init.h5"), m, [
        {"time": init[b, :1], "qpos": init[b, None, 1:1 + nq], "qvel": init[b, None, 1 + nq:1 + nq + nv],
         **({"act": init[b, None, 1 + nq + nv:]} if m.na else {})} for b in range(B)])
    args = []
    if m.nu:
        with h5py.File(tmp_path / "ctrl.h5", "w") as f:
            f["ctrl"] = ctrl
        args = ["--ctrl", tmp_path / "ctrl.h5"]
    tool("simulate", path, "--batch", B, "--init", tmp_path / "init.h5", *args,
         "--steps", T, "--record", "time,qpos,qvel,act,sensordata,ncon", "-o", tmp_path / "out.h5")
    return joco.read_trajectory(str(tmp_path / "out.h5"), m)


@pytest.mark.parametrize("path", [CARTPOLE, HUMANOID, TOUCH], ids=lambda p: p.name)
def test_rollout_matches_joco_simulate_bit_for_bit(tmp_path, path):
    m = joco.Model.load(str(path))
    rng = np.random.default_rng(3)
    B, T = 3, 40
    d = joco.Data(m)
    init = np.tile(joco.get_state(m, d), (B, 1))
    init[:, 0] = [0.0, 0.5, 1.0]  # time
    init[:, 1 + m.nq:1 + m.nq + m.nv] = rng.normal(0, 0.3, (B, m.nv))  # qvel
    ctrl = rng.uniform(-0.5, 0.5, (B, T, m.nu))
    state, sensordata = joco.rollout(m, init, ctrl, threads=2)
    assert state.shape == (B, T, joco.state_size(m)) and sensordata.shape == (B, T, m.nsensordata)
    runs = simulate_batch(tmp_path, path, m, init, ctrl)
    assert len(runs) == B
    for b, run in enumerate(runs):
        expected = np.hstack([run["time"][:, None], run["qpos"], run["qvel"],
                              run["act"] if m.na else np.zeros((T + 1, 0))])
        np.testing.assert_array_equal(state[b], expected[1:])
        if m.nsensordata:
            np.testing.assert_array_equal(sensordata[b], run["sensordata"][:T])
    if path == TOUCH:
        assert sum(run["ncon"].sum() for run in runs) > 0  # contacts were part of it


def test_rollout_same_bits_on_any_threads_and_broadcast():
    m = joco.Model.load(str(HUMANOID))
    rng = np.random.default_rng(1)
    B, T = 5, 20
    init = joco.get_state(m, joco.Data(m))
    ctrl = rng.uniform(-1, 1, (B, T, m.nu))
    one, y1 = joco.rollout(m, init, ctrl, threads=1)
    two, y2 = joco.rollout(m, np.tile(init, (B, 1)), ctrl, threads=3)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(y1, y2)
    same, _ = joco.rollout(m, init, ctrl[0])  # [T, nu]: one rollout
    np.testing.assert_array_equal(same[0], one[0])


def test_rollout_matches_stepping_in_python():
    m = joco.Model.load(str(CARTPOLE))
    ctrl = np.linspace(-1, 1, 30)[:, None]
    state, y = joco.rollout(m, joco.get_state(m, joco.Data(m)), ctrl)
    d = joco.Data(m)
    for t in range(30):
        d.ctrl[:] = ctrl[t]
        joco.step(m, d)
        np.testing.assert_array_equal(joco.get_state(m, d), state[0, t])


def test_transition_derivatives_match_joco_derivatives(tmp_path):
    m = joco.Model.load(str(CARTPOLE))
    d = joco.Data(m)
    joco.reset_keyframe(m, d, "tilted")
    joco.write_trajectory(str(tmp_path / "x.h5"), m, {
        "time": np.array([d.time]), "qpos": d.qpos[None].copy(), "qvel": d.qvel[None].copy(),
        "ctrl": d.ctrl[None].copy()})
    tool("derivatives", CARTPOLE, "--states", tmp_path / "x.h5", "--eps", "1e-6", "-o", tmp_path / "ab.h5")
    out = joco.read_trajectory(str(tmp_path / "ab.h5"))
    A, B, C, D = joco.transition_fd(m, d, eps=1e-6)
    np.testing.assert_array_equal(A, out["A"][0])
    np.testing.assert_array_equal(B, out["B"][0])
    np.testing.assert_array_equal(C, out["C"][0])
    np.testing.assert_array_equal(D, out["D"][0])
    assert A.shape == (4, 4) and B.shape == (4, 1) and C.shape == (m.nsensordata, 4)
    # And the dynamics they describe: the pole falls away from upright (an unstable pair).
    assert np.max(np.abs(np.linalg.eigvals(A))) > 1
