"""joco.Model: every array and size against joco-compile --print json, options, names."""
import json

import numpy as np
import pytest

from conftest import CARTPOLE, HUMANOID, TESTDATA, tool, import_joco

joco = import_joco()

MODELS = [CARTPOLE, HUMANOID, TESTDATA / "urdf" / "ur5" / "ur5_robot.urdf"]


def printed(path):
    return json.loads(tool("compile", path, "--print", "json").stdout)


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_fields_match_joco_compile(path):
    m = joco.Model.load(str(path))
    j = printed(path)
    assert j["model_name"] == m.name
    for name, value in j["sizes"].items():
        assert getattr(m, name) == value, name
    assert sorted(j["arrays"]) == sorted(joco.Model.array_names)
    compared = 0
    for name, value in j["arrays"].items():
        a = getattr(m, name)
        assert not a.flags.writeable, name
        if isinstance(value, str):  # char arrays (names, text_data) are printed as strings
            assert a.dtype == np.int8 and bytes(a.view(np.uint8)).decode() == value, name
            compared += a.size
            continue
        expected = np.array(value, dtype=float).astype(a.dtype).ravel()  # float32 printed as such
        assert a.size == expected.size, name
        np.testing.assert_array_equal(a.ravel(), expected, err_msg=name)
        compared += a.size
    assert compared > 0
    for key, value in j["options"].items():
        group, field = key.split(".", 1)
        if group == "opt":
            np.testing.assert_array_equal(np.ravel(getattr(m.opt, field)), np.ravel(value), err_msg=key)


def test_jmb_roundtrip(tmp_path):
    m = joco.Model.load(str(HUMANOID))
    m.save(str(tmp_path / "h.jmb"))
    back = joco.Model.load(str(tmp_path / "h.jmb"))
    for name in joco.Model.array_names:
        np.testing.assert_array_equal(getattr(back, name), getattr(m, name), err_msg=name)


def test_options_writable_and_read_back():
    m = joco.Model.load(str(CARTPOLE))
    m.opt.timestep = 0.002
    m.opt.gravity[2] = -1.0
    m.opt.iterations = 7
    assert m.opt.timestep == 0.002 and m.opt.gravity[2] == -1.0 and m.opt.iterations == 7
    d = joco.Data(m)
    joco.step(m, d)
    assert d.time == 0.002


def test_names_and_ids():
    m = joco.Model.load(str(CARTPOLE))
    assert m.name2id("body", "pole") == 2
    assert m.name2id("joint", "hinge") == 1
    assert m.name2id("actuator", "push") == 0
    assert m.name2id("body", "nothing") == -1
    assert m.id2name("geom", m.name2id("geom", "rail")) == "rail"
    assert m.id2name("body", 99) is None
    assert m.body("pole").id == 2 and m.sensor("tip_pos").id == 3 and m.key("tilted").id == 0
    with pytest.raises(KeyError):
        m.body("nothing")
    with pytest.raises(joco.InputError, match="unknown object type"):
        m.name2id("bodies", "pole")


def test_model_arrays_are_views_not_copies():
    m = joco.Model.load(str(CARTPOLE))
    a, b = m.body_mass, m.body_mass
    assert np.shares_memory(a, b)
    with pytest.raises(ValueError):
        a[0] = 1.0
