#!/usr/bin/env python3
"""A batch of rollouts from Python with joco.rollout, written as a batch file the tools read.

64 cart-poles from random tilts under random controls, on two threads with the GIL released; the
spread of the pole angle over time, and the batch written to OUT_DIR/batch.h5 in the tools' layout
(joco-view, joco-inverse and joco-derivatives read it; h5py reads rollout_00007/qpos).

    PYTHONPATH=build/python python3 examples/python/batch_rollout.py [OUT_DIR] [MODEL]
"""
import pathlib
import sys
import time

import numpy as np

import joco


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out")
    model = sys.argv[2] if len(sys.argv) > 2 else str(root / "testdata/python/cartpole.xml")
    out.mkdir(parents=True, exist_ok=True)
    m = joco.Model.load(model)
    rng = np.random.default_rng(0)
    B, T = 64, 200

    # Initial states (time, qpos, qvel, act): the model's own, the pole tilted at random.
    d = joco.Data(m)
    init = np.tile(joco.get_state(m, d), (B, 1))
    init[:, 1 + m.jnt_qposadr[m.joint("hinge").id]] = rng.uniform(-0.2, 0.2, B)
    ctrl = rng.uniform(-0.3, 0.3, (B, T, m.nu))

    start = time.perf_counter()
    state, sensordata = joco.rollout(m, init, ctrl, threads=2)
    seconds = time.perf_counter() - start
    print(f"{B} rollouts x {T} steps in {seconds * 1e3:.1f} ms: {B * T / seconds:,.0f} steps/s")

    angle = state[:, :, 1 + m.jnt_qposadr[m.joint("hinge").id]]
    for t in (0, T // 4, T // 2, T - 1):
        print(f"t = {(t + 1) * m.opt.timestep:.2f} s: pole angle mean {angle[:, t].mean():+.3f}, "
              f"spread (std) {angle[:, t].std():.3f} rad")

    # The batch as the tools write it: one group per rollout, rows 0..T (the initial state first).
    nq, nv = m.nq, m.nv
    rollouts = []
    for b in range(B):
        states = np.vstack([init[b], state[b]])
        rollouts.append({"time": states[:, 0], "qpos": states[:, 1:1 + nq],
                         "qvel": states[:, 1 + nq:1 + nq + nv],
                         "ctrl": np.vstack([ctrl[b], ctrl[b, -1:]]),
                         "sensordata": np.vstack([sensordata[b], sensordata[b, -1:]])})
    joco.write_trajectory(str(out / "batch.h5"), m, rollouts)
    back = joco.read_trajectory(str(out / "batch.h5"), m)
    assert len(back) == B and np.array_equal(back[7]["qpos"], rollouts[7]["qpos"])
    print(f"wrote {out / 'batch.h5'} ({B} rollout groups of {T + 1} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
