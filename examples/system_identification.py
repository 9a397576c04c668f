#!/usr/bin/env python3
"""System identification by a parameter sweep: recover a joint's damping from a recorded motion.

    python3 examples/system_identification.py TOOLS_DIR OUT_DIR

A "recording" is made first (a run with a damping the fit does not know, with measurement noise
added). Then a coarse sweep of candidate dampings runs as one joco-simulate batch (--params, one row
per candidate), each rollout is compared with the recording, and a finer sweep around the best
candidate refines it; a parabola through the cost near its minimum gives the estimate. The cost
curve is plotted to OUT_DIR/system_identification.png.
"""
import os
import subprocess
import sys

import h5py
import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "models", "spring_box.xml")
STEPS = "1000"


def simulate(tools, out, name, *args):
    path = os.path.join(out, name + ".h5")
    subprocess.run([os.path.join(tools, "joco-simulate"), MODEL, "--init", "pulled",
                    "--steps", STEPS, "--threads", "2", "-q", "-o", path, *args], check=True)
    return path


# Low friction, so that the damping shapes the whole motion: the same --set for every run.
FLOOR = ["--set", "geom_friction[floor]=0.02 0.005 0.0001",
         "--set", "geom_friction[box]=0.02 0.005 0.0001"]


def sweep(tools, out, name, dampings, recorded):
    """The squared error of the box's position against the recording, for each damping."""
    params = os.path.join(out, name + ".csv")
    with open(params, "w") as f:
        f.write("dof_damping[x]\n")
        f.writelines(f"{d!r}\n" for d in dampings)
    runs = simulate(tools, out, name, *FLOOR, "--batch", str(len(dampings)), "--params", params)
    with h5py.File(runs, "r") as f:
        groups = sorted(g for g in f if g.startswith("rollout_"))
        return np.array([np.mean((f[g]["qpos"][:, 0] - recorded) ** 2) for g in groups])


def main(tools, out):
    os.makedirs(out, exist_ok=True)
    true_damping = 1.37
    recording = simulate(tools, out, "recording", *FLOOR, "--set", f"dof_damping[x]={true_damping}")
    with h5py.File(recording, "r") as f:
        rng = np.random.default_rng(7)
        recorded = f["qpos"][:, 0] + rng.normal(0, 0.002, f["qpos"].shape[0])

    coarse = np.linspace(0.0, 4.0, 21)
    coarse_cost = sweep(tools, out, "coarse", coarse, recorded)
    best = coarse[np.argmin(coarse_cost)]
    fine = np.linspace(best - 0.2, best + 0.2, 21)
    fine_cost = sweep(tools, out, "fine", fine, recorded)
    i = int(np.clip(np.argmin(fine_cost), 2, len(fine) - 3))
    a, b, _ = np.polyfit(fine[i - 2:i + 3], fine_cost[i - 2:i + 3], 2)
    estimate = -b / (2 * a)
    print(f"damping: true {true_damping}, estimated {estimate:.4f} "
          f"(coarse sweep best {best:.2f}, {len(coarse) + len(fine)} rollouts)")

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogy(coarse, coarse_cost, "o-", label="coarse sweep")
    ax.semilogy(fine, fine_cost, ".-", label="fine sweep")
    ax.axvline(true_damping, color="k", ls="--", lw=0.8, label="true damping")
    ax.axvline(estimate, color="r", ls=":", lw=1.2, label=f"estimate {estimate:.3f}")
    ax.set(xlabel="dof_damping[x]", ylabel="mean squared position error (m$^2$)",
           title="system identification by --params sweep")
    ax.legend()
    fig.tight_layout()
    png = os.path.join(out, "system_identification.png")
    fig.savefig(png, dpi=100)
    print("plot written to", png)
    assert abs(estimate - true_damping) < 0.02 * true_damping, estimate


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
