#!/usr/bin/env python3
"""Reading contacts and sensors from a joco-simulate output.

    python3 examples/contacts_and_sensors.py TOOLS_DIR OUT_DIR

Drops a box on the floor (examples/models/touch_box.xml) with the contact table (--contacts) and,
besides the default arrays, the bodies' positions and external forces (--record default,xpos,
cfrc_ext), then reads the file with h5py the way a script would:

- the sensors by name, from /model/sensor_names, sensor_adr and sensor_dim (the columns of
  sensordata);
- the contacts of each row from the flat contact table (row, geom1, geom2, pos, frame, dist, force
  in the contact frame, the normal force first), the geoms by name from /model/geom_names;
- the recorded Data arrays xpos (T, nbody, 3) and cfrc_ext (T, nbody, 6).

It checks that they agree (the touch sensor is the sum of the normal forces of the contacts in its
zone; at rest that is the box's weight, which the accelerometer and cfrc_ext also show; the position
sensor is the body's xpos) and plots them to OUT_DIR/contacts_and_sensors.png. Exits non-zero when
something does not agree.
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
MODEL = os.path.join(HERE, "models", "touch_box.xml")
MASS, GRAVITY = 2.0, 9.81


def sensors(f):
    """The columns of sensordata by sensor name: {name: (T, dim) array}."""
    names = f["model/sensor_names"].asstr()[:]
    adr, dim = f["model/sensor_adr"][:], f["model/sensor_dim"][:]
    data = f["sensordata"][:]
    return {n: data[:, a:a + d] for n, a, d in zip(names, adr, dim)}


def main(tools, out):
    os.makedirs(out, exist_ok=True)
    run = os.path.join(out, "touch_box.h5")
    subprocess.run([os.path.join(tools, "joco-simulate"), MODEL, "--steps", "1000", "--contacts",
                    "--record", "default,xpos,cfrc_ext", "-o", run, "-q"], check=True)

    with h5py.File(run, "r") as f:
        time = f["time"][:]
        s = sensors(f)
        bodies = list(f["model/body_names"].asstr()[:])
        geoms = f["model/geom_names"].asstr()[:]
        xpos = f["xpos"][:]          # (T, nbody, 3)
        cfrc_ext = f["cfrc_ext"][:]  # (T, nbody, 6): torque, then force
        c = f["contact"]
        row, geom1, geom2 = c["row"][:], c["geom1"][:], c["geom2"][:]
        force = c["force"][:]        # (N, 6) in the contact frame: normal force first

    rows = len(time)
    box = bodies.index("box")
    # The contacts of row t are the entries with row == t (the column is sorted).
    last = rows - 1
    first, end = np.searchsorted(row, [last, last + 1])
    print(f"{rows} rows, {len(row)} contacts; at t = {time[last]:.3f} s:")
    for i in range(first, end):
        print(f"  {geoms[geom1[i]]} - {geoms[geom2[i]]}: normal force {force[i, 0]:.3f} N")

    # The sum of the normal forces in each row, beside the touch sensor.
    normal = np.bincount(row, weights=force[:, 0], minlength=rows)
    touch = s["touch"][:, 0]
    ok = True
    if not np.allclose(touch, normal, rtol=1e-9, atol=1e-9):
        print("touch sensor and contact forces differ:", np.abs(touch - normal).max())
        ok = False
    rest = slice(rows - 100, rows)  # the box lies still by then
    weight = MASS * GRAVITY
    for name, value in (("touch sensor", touch[rest]),
                        ("accelerometer z times the mass", s["accel"][rest, 2] * MASS),
                        ("cfrc_ext z of the box", cfrc_ext[rest, box, 5])):
        print(f"at rest, {name}: {value.mean():.4f} N (weight {weight:.4f} N)")
        if abs(value.mean() - weight) > 1e-3 * weight:
            ok = False
    if not np.allclose(s["position"], xpos[:, box, :], rtol=0, atol=1e-12):
        print("position sensor and xpos differ")
        ok = False

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    ax1.plot(time, s["position"][:, 2], label="position sensor z")
    ax1.set_ylabel("height (m)")
    ax1.legend()
    ax2.plot(time, touch, label="touch sensor")
    ax2.plot(time, normal, "--", label="sum of contact normal forces")
    ax2.plot(time, cfrc_ext[:, box, 5], ":", label="cfrc_ext z of the box")
    ax2.axhline(weight, color="gray", lw=0.5)
    ax2.set_ylim(0, 5 * weight)
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("force (N)")
    ax2.legend()
    png = os.path.join(out, "contacts_and_sensors.png")
    fig.savefig(png, dpi=100)
    print("wrote", png)
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
