#!/usr/bin/env python3
"""Closed-loop LQR of a cart-pole from Python with the joco module.

The transition Jacobians A, B of one step at the upright pole (joco.transition_fd) give the
discrete LQR gain K (the Riccati equation iterated with numpy alone); the loop then reads the
state, sets ctrl = -K x and steps, from the model's tilted keyframe, in the same process.

    PYTHONPATH=build/python python3 examples/python/lqr_cartpole.py [MODEL] [STEPS]

MODEL defaults to testdata/python/cartpole.xml. Prints the final state and the time per step;
exits 1 when the pole is not balanced at the end.
"""
import pathlib
import sys
import time

import numpy as np

import joco


def lqr_gain(A, B, Q, R, iterations=10000, tol=1e-12):
    """K of u = -K x minimising sum x'Qx + u'Ru for x' = Ax + Bu (discrete Riccati, iterated)."""
    P = Q.copy()
    for _ in range(iterations):
        K = np.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
        P_next = Q + A.T @ P @ (A - B @ K)
        if np.max(np.abs(P_next - P)) < tol * max(1.0, np.max(np.abs(P))):
            return K
        P = P_next
    return K


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    model = sys.argv[1] if len(sys.argv) > 1 else str(root / "testdata/python/cartpole.xml")
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    m = joco.Model.load(model)
    d = joco.Data(m)

    # Linearise at the upright equilibrium (qpos = 0, qvel = 0, ctrl = 0).
    A, B, _, _ = joco.transition_fd(m, d, sensors=False)
    Q = np.diag([1.0, 10.0, 0.1, 0.1])  # cart, pole angle, their velocities
    R = np.eye(m.nu) * 0.1
    K = lqr_gain(A, B, Q, R)
    print("LQR gain K =", np.array2string(K, precision=3))

    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    joco.reset_keyframe(m, d, "tilted")
    print(f"start: cart {d.qpos[0]:+.4f} m, pole {d.qpos[1]:+.4f} rad")
    qpos, qvel, ctrl = d.qpos, d.qvel, d.ctrl  # views: read and written in place
    x = np.empty(2 * m.nv)
    start = time.perf_counter()
    for _ in range(steps):
        x[: m.nv] = qpos  # hinge and slider: the tangent coordinates are qpos itself
        x[m.nv :] = qvel
        ctrl[:] = np.clip(-K @ x, lo, hi)
        joco.step(m, d)
    seconds = time.perf_counter() - start
    print(f"after {steps} steps ({d.time:.2f} s): cart {d.qpos[0]:+.2e} m, pole {d.qpos[1]:+.2e} rad, "
          f"{1e6 * seconds / steps:.1f} us per step (controller and step)")
    balanced = abs(d.qpos[1]) < 1e-3 and abs(d.qpos[0]) < 1e-2 and np.all(np.abs(d.qvel) < 1e-2)
    print("balanced" if balanced else "NOT balanced")
    return 0 if balanced else 1


if __name__ == "__main__":
    sys.exit(main())
