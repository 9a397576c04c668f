"""Trajectory files through the tools' own reader and writer."""
import h5py
import numpy as np
import pytest

from conftest import CARTPOLE, tool, import_joco

joco = import_joco()


def test_tools_read_what_python_writes_and_back(tmp_path):
    m = joco.Model.load(str(CARTPOLE))
    rows = 6
    qpos = np.column_stack([np.zeros(rows), np.linspace(0, 0.2, rows)])
    joco.write_trajectory(str(tmp_path / "s.h5"), m, {
        "time": np.arange(rows) * 0.01, "qpos": qpos, "qvel": np.zeros((rows, 2)),
        "my_extra": np.ones((rows, 3))})
    with h5py.File(tmp_path / "s.h5") as f:  # the tools' layout, as schemas/trajectory.md says
        assert f["qpos"].shape == (rows, 2) and f.attrs["format"] in (b"joco.trajectory", "joco.trajectory")
    tool("simulate", CARTPOLE, "--evaluate", tmp_path / "s.h5", "-o", tmp_path / "e.h5")
    back = joco.read_trajectory(str(tmp_path / "e.h5"), m)
    np.testing.assert_array_equal(back["qpos"], qpos)
    assert back["sensordata"].shape == (rows, m.nsensordata)
    assert back["ncon"].dtype == np.int32
    mine = joco.read_trajectory(str(tmp_path / "s.h5"))
    np.testing.assert_array_equal(mine["my_extra"], np.ones((rows, 3)))


def test_batch_file_roundtrip(tmp_path):
    m = joco.Model.load(str(CARTPOLE))
    groups = [{"qpos": np.full((3, 2), float(b))} for b in range(4)]
    joco.write_trajectory(str(tmp_path / "b.h5"), m, groups)
    back = joco.read_trajectory(str(tmp_path / "b.h5"), m)
    assert [g["qpos"][0, 0] for g in back] == [0.0, 1.0, 2.0, 3.0]
    one = joco.read_trajectory(str(tmp_path / "b.h5") + ":/rollout_00002")
    assert one["qpos"][0, 0] == 2.0
