"""Shared set-up of the joco module's tests: the module (skipped, with the reason, when it was not
built), the tools' directory and the source tree (CTest sets JOCO_TOOL_DIR and JOCO_SOURCE_DIR;
run by hand: PYTHONPATH=build/python JOCO_TOOL_DIR=build/tools python3 -m pytest python/tests)."""
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("JOCO_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
TOOL_DIR = pathlib.Path(os.environ.get("JOCO_TOOL_DIR", SOURCE_DIR / "build" / "tools"))
TESTDATA = SOURCE_DIR / "testdata"
CARTPOLE = TESTDATA / "python" / "cartpole.xml"
HUMANOID = TESTDATA / "mujoco" / "model" / "humanoid" / "humanoid.xml"
TOUCH = TESTDATA / "sensor" / "touch.xml"  # contacts from the first step, sensors, no actuators



def import_joco():
    """The module, or the calling test file skipped with the reason (not built: JOCO_PYTHON off, or
    not on PYTHONPATH)."""
    try:
        import joco
        return joco
    except ImportError as e:
        pytest.skip(f"the joco module is not importable ({e}); build it with -DJOCO_PYTHON=ON and "
                    "set PYTHONPATH=build/python", allow_module_level=True)


def tool(name, *args, check=True):
    """Runs build/tools/joco-NAME; returns the completed process (stdout as text)."""
    exe = TOOL_DIR / f"joco-{name}"
    if not exe.exists():
        pytest.fail(f"{exe} is not built")
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, check=check)
