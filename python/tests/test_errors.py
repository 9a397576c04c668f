"""Bad input from Python raises (with the engine's message), never crashes."""
import numpy as np
import pytest

from conftest import CARTPOLE, HUMANOID, import_joco

joco = import_joco()


@pytest.fixture
def m():
    return joco.Model.load(str(CARTPOLE))


def test_error_classes():
    assert issubclass(joco.InputError, joco.Error) and issubclass(joco.InputError, ValueError)
    assert issubclass(joco.SimulationError, joco.Error) and issubclass(joco.SimulationError, RuntimeError)


def test_bad_model_files(tmp_path):
    with pytest.raises(joco.InputError, match="cannot open"):
        joco.Model.load(str(tmp_path / "missing.xml"))
    bad = tmp_path / "bad.xml"
    bad.write_text('<mujoco><worldbody><body><joint type="hinj"/></body></worldbody></mujoco>')
    with pytest.raises(joco.InputError, match="bad.xml"):
        joco.Model.load(str(bad))
    (tmp_path / "junk.jmb").write_bytes(b"\0\1\2junk")
    with pytest.raises(joco.InputError):
        joco.Model.load(str(tmp_path / "junk.jmb"))


def test_data_of_another_model(m):
    other = joco.Model.load(str(HUMANOID))
    d = joco.Data(other)
    for fn in (joco.step, joco.forward, joco.step1, joco.step2, joco.inverse, joco.reset):
        with pytest.raises(joco.InputError, match="another model"):
            fn(m, d)
    with pytest.raises(joco.InputError, match="another model"):
        joco.get_state(m, d)
    with pytest.raises(joco.InputError, match="another model"):
        joco.transition_fd(m, d)


def test_bad_shapes_and_dtypes(m):
    d = joco.Data(m)
    n = joco.state_size(m)
    with pytest.raises(joco.InputError, match="shape"):
        joco.set_state(m, d, np.zeros(n + 1))
    with pytest.raises(joco.InputError, match="dtype"):
        joco.set_state(m, d, np.zeros(n, dtype=np.float32))
    with pytest.raises(joco.InputError, match="bits beyond"):
        joco.state_size(m, 1 << 20)
    with pytest.raises(joco.InputError, match="shape"):
        joco.rollout(m, np.zeros((2, n)), np.zeros((2, 5, m.nu + 1)))
    with pytest.raises(joco.InputError, match="rollouts"):
        joco.rollout(m, np.zeros((2, n)), np.zeros((3, 5, m.nu)))
    with pytest.raises(joco.InputError, match="dtype"):
        joco.rollout(m, np.zeros((2, n)), np.zeros((2, 5, m.nu), dtype=np.int64))
    with pytest.raises(joco.InputError, match="dimensions"):
        joco.rollout(m, np.zeros(n), np.zeros(5))
    with pytest.raises(joco.InputError, match="threads"):
        joco.rollout(m, np.zeros(n), np.zeros((5, m.nu)), threads=0)
    with pytest.raises(joco.InputError):
        joco.rollout(m, "not an array", np.zeros((5, m.nu)))
    with pytest.raises(joco.InputError, match="keyframe"):
        joco.reset_keyframe(m, d, "nope")
    with pytest.raises(joco.InputError, match="out of range|keyframe"):
        joco.reset_keyframe(m, d, 5)
    with pytest.raises(joco.InputError, match="eps"):
        joco.transition_fd(m, d, eps=0)
    with pytest.raises(TypeError):
        joco.step(m, None)


def test_bad_trajectories(m, tmp_path):
    with pytest.raises(joco.InputError, match="qpos"):
        joco.write_trajectory(str(tmp_path / "a.h5"), m, {"qvel": np.zeros((2, 2))})
    with pytest.raises(joco.InputError, match="shape"):
        joco.write_trajectory(str(tmp_path / "a.h5"), m, {"qpos": np.zeros((2, 3))})
    with pytest.raises(joco.InputError, match="shape"):
        joco.write_trajectory(str(tmp_path / "a.h5"), m, {"qpos": np.zeros((2, 2)), "qvel": np.zeros((3, 2))})
    with pytest.raises(joco.InputError):
        joco.read_trajectory(str(tmp_path / "missing.h5"))
    (tmp_path / "junk.h5").write_bytes(b"not hdf5")
    with pytest.raises(joco.InputError):
        joco.read_trajectory(str(tmp_path / "junk.h5"))
    other = joco.Model.load(str(HUMANOID))
    joco.write_trajectory(str(tmp_path / "h.h5"), other, {"qpos": np.zeros((2, other.nq))})
    with pytest.raises(joco.InputError, match="nq = 28"):
        joco.read_trajectory(str(tmp_path / "h.h5"), m)
