#!/usr/bin/env python3
"""Domain randomisation: one batch of rollouts, each with its own box mass and floor friction.

    python3 examples/domain_randomisation.py TOOLS_DIR OUT_DIR

Draws N (mass, friction) pairs, writes them as a --params CSV file (one row per rollout), runs them
all in one joco-simulate batch, reads each rollout's trajectory back with h5py, and plots the spread
of the outcome (the box's position over time, and where it comes to rest against mass and friction)
to OUT_DIR/domain_randomisation.png. Each rollout's group records the values it ran with
(param:NAME attributes), which the script checks against what it asked for.
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


def main(tools, out):
    os.makedirs(out, exist_ok=True)
    rollouts = 32
    rng = np.random.default_rng(2024)
    mass = rng.uniform(0.5, 3.0, rollouts)
    friction = rng.uniform(0.02, 0.4, rollouts)

    # One column per parameter, named as MuJoCo names the model's field and element; a parameter
    # of several values (geom_friction: slide, spin, roll) takes them space-separated in one cell.
    params = os.path.join(out, "randomised.csv")
    with open(params, "w") as f:
        f.write("body_mass[box],geom_friction[floor],geom_friction[box]\n")
        for m, mu in zip(mass, friction):
            f.write(f"{m!r},{mu!r} 0.005 0.0001,{mu!r} 0.005 0.0001\n")

    runs = os.path.join(out, "randomised.h5")
    subprocess.run([os.path.join(tools, "joco-simulate"), MODEL, "--init", "pulled",
                    "--steps", "1500", "--batch", str(rollouts), "--threads", "2",
                    "--params", params, "-o", runs, "-q"], check=True)

    with h5py.File(runs, "r") as f:
        groups = sorted(g for g in f if g.startswith("rollout_"))
        assert len(groups) == rollouts, groups
        time = f[groups[0]]["time"][:]
        x = np.stack([f[g]["qpos"][:, 0] for g in groups])
        # The values each rollout ran with are stored in its group.
        ran_with = np.array([f[g].attrs["param:body_mass[box]"] for g in groups])
        assert np.array_equal(ran_with, mass), (ran_with, mass)

    rest = x[:, -1]
    print(f"{rollouts} rollouts: resting position {rest.mean():+.3f} m "
          f"(spread {rest.std():.3f} m, from {rest.min():+.3f} to {rest.max():+.3f})")

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for xi, mu in zip(x, friction):
        ax1.plot(time, xi, color=plt.cm.viridis(mu / friction.max()), lw=0.8)
    ax1.fill_between(time, x.min(axis=0), x.max(axis=0), color="grey", alpha=0.15)
    ax1.set(xlabel="time (s)", ylabel="box position x (m)",
            title="position over time (colour: friction)")
    # The box sticks where the spring's pull k|x| no longer overcomes friction mu m g: inside the
    # band |x| <= mu m g / k around the spring's rest length.
    # (Boxes still sliding at the end, with little friction, lie above the line.)
    band = friction * mass * 9.81 / 40.0
    sc = ax2.scatter(band, np.abs(rest), c=mass, cmap="plasma")
    ax2.plot([0, band.max()], [0, band.max()], "k--", lw=0.8, label="|x| = mu m g / k")
    fig.colorbar(sc, ax=ax2, label="box mass (kg)")
    ax2.legend(loc="upper left")
    ax2.set(xlabel="friction band mu m g / k (m)", ylabel="|final position x| (m)",
            title="where the box comes to rest")
    fig.tight_layout()
    png = os.path.join(out, "domain_randomisation.png")
    fig.savefig(png, dpi=100)
    print("plot written to", png)
    # The sweep matters: the rollouts end in different places.
    assert rest.std() > 1e-3


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
