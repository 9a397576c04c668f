"""examples/python: the closed-loop LQR balances the cart-pole; the batch rollout runs."""
import os
import subprocess
import sys

from conftest import SOURCE_DIR, import_joco

joco = import_joco()


def run(script, *args):
    return subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / "python" / script), *map(str, args)],
                          capture_output=True, text=True, env=dict(os.environ))


def test_lqr_cartpole_stabilises():
    p = run("lqr_cartpole.py")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "balanced" in p.stdout and "NOT" not in p.stdout


def test_batch_rollout(tmp_path):
    p = run("batch_rollout.py", tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (tmp_path / "batch.h5").exists()
