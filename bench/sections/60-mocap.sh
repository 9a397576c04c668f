#!/usr/bin/env bash
# bench/sections/60-mocap.sh [REPS]: markers to forces on the walking trial of
# testdata/mocap/gait2354_subject01 (issue 17): joco-ik frames per second and joco-inverse rows per
# second, and how joco's joint moments agree with OpenSim's inverse dynamics, from OpenSim's IK
# angles and from joco-ik's own.
# Speed: each tool runs over the whole trial (151 frames, 0-2.5 s) and over OpenSim's window (73
# frames, 0.4-1.6 s); the time per frame is the difference of the two wall times over the frames'
# difference (start-up cancels), medians of REPS alternating rounds.
. "$(dirname "$0")/lib.sh"
need $TOOLS/joco-ik $TOOLS/joco-inverse $TOOLS/joco-compile /usr/bin/python3
TRIAL=testdata/mocap/gait2354_subject01
XML=$TRIAL/model/subject01_simbody_cvt1_npp.xml
TRC=$TRIAL/data/subject01_walk1.trc
SETUP=$TRIAL/opensim/subject01_Setup_IK.xml
# OpenSim's ID set-up: the 6 Hz filter as OpenSim applies it, the spline derivatives, both force
# plates, and the conversion's joint damping removed (man joco-inverse, MEASURED MOTION).
ID_FLAGS="--lowpass 6 --lowpass-style opensim --smooth spline --external-loads
 $TRIAL/opensim/subject01_walk1_grf.xml --loads-data $TRIAL/data/subject01_walk1_grf.mot --no-damping"
need $XML $TRC $SETUP

M=$TMP/gait.jmb
$TOOLS/joco-compile "$XML" -o "$M" -q
# The window is OpenSim's set-up's time range; the whole trial overrides it.
ik_run() { $TOOLS/joco-ik "$M" "$TRC" --setup "$SETUP" "$@" -q; }
ik_run -o "$TMP/ik_window.h5"
ik_run --time-range 0 2.5 -o "$TMP/ik_all.h5"

seconds() {
  local t0=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || { echo "60-mocap: failed: $*" >&2; exit 2; }
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.6f\n", b - a}'
}
# joco-inverse is too fast for 78 rows to time: its rows are the whole trial (151) and the same
# motion resampled to the force plates' 600 Hz (1501 rows, linear between frames, written by h5py).
/usr/bin/python3 - "$TMP/ik_all.h5" "$TMP/ik_600hz.h5" <<'EOF2'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    t, q = f["time"][()], f["qpos"][()]
fine = np.linspace(t[0], t[-1], 10 * (len(t) - 1) + 1)
with h5py.File(sys.argv[2], "w") as f:
    f["time"] = fine
    f["qpos"] = np.stack([np.interp(fine, t, q[:, j]) for j in range(q.shape[1])], axis=1)
EOF2
# One round: each command 5 times, alternating, the fastest of each (a run takes tens of ms, so
# the minimum is what the machine's noise least disturbs); frames/s from the two minima.
fastest_pair() {
  local big=$1 small=$2 all=() window=() k
  shift 2
  for ((k = 0; k < 5; ++k)); do
    all+=("$(seconds "$@" ALL)")
    window+=("$(seconds "$@" WINDOW)")
  done
  awk -v a="$(printf '%s\n' "${all[@]}" | sort -g | head -1)" \
    -v b="$(printf '%s\n' "${window[@]}" | sort -g | head -1)" -v n="$big" -v k="$small" 'BEGIN {printf "%.1f\n", (n - k) / (a - b)}'
}
ik_frames() {
  if [[ $1 == ALL ]]; then ik_run --time-range 0 2.5 -o "$TMP/o.h5"; else ik_run -o "$TMP/o.h5"; fi
}
id_rows() {
  local input=$TMP/ik_all.h5
  [[ $1 == ALL ]] && input=$TMP/ik_600hz.h5
  # shellcheck disable=SC2086
  $TOOLS/joco-inverse "$M" "$input" $ID_FLAGS -o "$TMP/o.h5" -q
}
: >"$TMP/ik" && : >"$TMP/id"
ik_round() { fastest_pair 151 73 ik_frames >>"$TMP/ik"; }
id_round() { fastest_pair 1501 151 id_rows >>"$TMP/id"; }
progress "speed ($REPS rounds)"
alternate "$REPS" ik_round id_round

# Agreement: joco-inverse on OpenSim's IK angles and on joco-ik's, against OpenSim's ID; then on
# the faithful conversion (testdata README, "The faithful conversion"), alone and with the knee
# translations moved by OpenSim's own SimmSplines (as test MeasuredMotion.OpenSimKneeSplines).
XMLF=$TRIAL/model/subject01_simbody_cvt1_npp_faithful.xml
need $XMLF
# shellcheck disable=SC2086
$TOOLS/joco-inverse "$M" $TRIAL/reference/subject01_walk1_ik.mot $ID_FLAGS -o "$TMP/id_opensim.h5" -q
# shellcheck disable=SC2086
$TOOLS/joco-inverse "$M" "$TMP/ik_window.h5" $ID_FLAGS -o "$TMP/id_jocoik.h5" -q
# shellcheck disable=SC2086
$TOOLS/joco-inverse "$XMLF" $TRIAL/reference/subject01_walk1_ik.mot $ID_FLAGS -o "$TMP/id_faithful.h5" -q
# The processed coordinates with the knee translations from the .osim's SimmSplines of the knee
# angle (value, f' qdot, f' qddot + f'' qdot^2), and the splines' slopes (dataset knee_slope).
/usr/bin/python3 - "$TMP/id_faithful.h5" "$TRIAL/opensim/subject01_simbody.osim" "$XMLF" \
  "$TMP/splines.h5" <<'EOF'
import sys, h5py, numpy as np
import xml.etree.ElementTree as ET
processed, osim, xml, out = sys.argv[1:]
def simm_spline(x, y, scale):
    """OpenSim's SimmSpline (Forsythe, Malcolm and Moler's end conditions: the third derivatives of
    the cubics through the first and the last four knots) times the scale: value, f', f''."""
    x, y, n = np.asarray(x), np.asarray(y), len(x)
    h = np.diff(x)
    slope = np.diff(y) / h
    diag, rhs = np.zeros(n), np.zeros(n)
    diag[1:-1], rhs[1:-1] = 2 * (h[:-1] + h[1:]), np.diff(slope)
    def third(i):
        return (rhs[i + 2] / (x[i + 3] - x[i + 1]) - rhs[i + 1] / (x[i + 2] - x[i])) / (x[i + 3] - x[i])
    diag[0], diag[-1] = -h[0], -h[-1]
    rhs[0], rhs[-1] = h[0] ** 2 * third(0), -h[-1] ** 2 * third(n - 4)
    for i in range(1, n):
        w = h[i - 1] / diag[i - 1]
        diag[i] -= w * h[i - 1]
        rhs[i] -= w * rhs[i - 1]
    sig = np.zeros(n)
    sig[-1] = rhs[-1] / diag[-1]
    for i in range(n - 2, -1, -1):
        sig[i] = (rhs[i] - h[i] * sig[i + 1]) / diag[i]
    b, c, d = slope - h * (sig[1:] + 2 * sig[:-1]), 3 * sig[:-1], np.diff(sig) / h
    def f(q):  # inside the knots (the trial's knee angles are)
        k = np.clip(np.searchsorted(x, q) - 1, 0, n - 2)
        t = q - x[k]
        return (scale * (y[k] + t * (b[k] + t * (c[k] + t * d[k]))),
                scale * (b[k] + t * (2 * c[k] + 3 * t * d[k])), scale * (2 * c[k] + 6 * t * d[k]))
    return f
joints = [j.get("name") for j in ET.parse(xml).find("worldbody").iter("joint")]
with h5py.File(processed, "r") as p:
    time, q, v, a = (p[k][()] for k in ("time", "qpos", "qvel", "qacc"))
knee_slope = np.zeros_like(q)
for j in ET.parse(osim).getroot().iter("CustomJoint"):
    if j.get("name") not in ("knee_r", "knee_l"):
        continue
    for t in j.iter("TransformAxis"):
        if t.get("name") not in ("translation1", "translation2"):
            continue
        m = t.find("MultiplierFunction")
        s = m.find("function/SimmSpline")
        f = simm_spline([float(z) for z in s.findtext("x").split()],
                        [float(z) for z in s.findtext("y").split()], float(m.findtext("scale")))
        dof = joints.index(j.get("name") + "_" + t.get("name"))
        leader = joints.index("knee_angle_" + j.get("name")[-1])
        value, slope, curvature = f(q[:, leader])
        q[:, dof], v[:, dof] = value, slope * v[:, leader]
        a[:, dof] = slope * a[:, leader] + curvature * v[:, leader] ** 2
        knee_slope[:, dof] = slope
with h5py.File(out, "w") as o:
    o["time"], o["qpos"], o["qvel"], o["qacc"], o["knee_slope"] = time, q, v, a, knee_slope
EOF
# The trajectory given as it is: no filter; the loads and no damping as above.
LOAD_FLAGS=${ID_FLAGS#--lowpass 6 --lowpass-style opensim --smooth spline}
# shellcheck disable=SC2086
$TOOLS/joco-inverse "$XMLF" "$TMP/splines.h5" $LOAD_FLAGS -o "$TMP/id_splines.h5" -q
ik_rms=$(/usr/bin/python3 - "$TMP/ik_window.h5" <<'EOF'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    print("%.2f" % (1000 * np.sqrt(np.mean(np.square(f["marker_rms"][()])))))
EOF
)

echo "## Mocap to forces: the gait2354 walking trial"
echo
echo "\`joco-ik\` with OpenSim's IK set-up (31 markers, weights, locked subtalar and mtp) and"
echo "\`joco-inverse\` with OpenSim's ID processing (\`$(echo $ID_FLAGS | sed "s#$TRIAL/##g")\`),"
echo "on the 27-dof MJCF conversion. Frames per second: joco-ik over the whole trial (151 frames) minus"
echo "OpenSim's window (73 frames), joco-inverse over joco-ik's 151 frames resampled to 600 Hz (1501 rows)"
echo "minus the 151, so start-up cancels; each round the fastest of 5 runs of each, medians of $REPS rounds"
echo "(min-max), one thread."
echo
echo "| tool | frames/s | what |"
echo "| --- | --- | --- |"
echo "| joco-ik | $(med %.0f <"$TMP/ik") | Levenberg-Marquardt fit per frame, warm-started; marker RMS $ik_rms mm over 0.4-1.6 s (OpenSim's angles: 21.98 mm) |"
echo "| joco-inverse | $(med %.0f <"$TMP/id") | filter, quintic spline derivatives, force plates resampled, inverse, residuals |"
echo
echo "Agreement with OpenSim's ID (reference/inverse_dynamics.sto, 73 rows): max |joco - OpenSim| over the"
echo "rows in % of OpenSim's peak, on \`qfrc_reduced\`. Goal (issue 17): hip, knee and ankle flexion and"
echo "the pelvis residuals within 10% from OpenSim's IK angles; from joco-ik's angles measured. Models:"
echo "the conversion as it came, and the faithful conversion (testdata README: OpenSim's gravity and foot"
echo "inertias, knee quartics fitted to OpenSim's splines), alone and with the knee translations moved by"
echo "OpenSim's SimmSplines (positions, velocities, accelerations of the filtered knee angle given as the"
echo "trajectory; knee moments projected with the splines' slopes)."
echo
/usr/bin/python3 - "$TMP/id_opensim.h5" "$TMP/id_jocoik.h5" "$TMP/id_faithful.h5" "$TMP/id_splines.h5" \
  "$TMP/splines.h5" "$TRIAL/reference/inverse_dynamics.sto" "$XML" <<'EOF'
import sys, re, h5py, numpy as np
import xml.etree.ElementTree as ET
opensim_run, jocoik_run, faithful_run, splines_run, splines, sto, xml = sys.argv[1:]
lines = open(sto).read().splitlines()
head = next(i for i, l in enumerate(lines) if l.strip() == "endheader")
names = lines[head + 1].split("\t")
ref = np.array([[float(v) for v in l.split()] for l in lines[head + 2:] if l.strip()])
# The MJCF's joints in order, one dof each (hinges and slides): their column in qfrc_reduced.
joints = [j.get("name") for j in ET.parse(xml).find("worldbody").iter("joint")]
def errors(q):
    out = {}
    for c, name in enumerate(names[1:], start=1):
        coord = re.sub(r"_(moment|force)$", "", name)
        if coord in joints:
            peak = np.abs(ref[:, c]).max()
            out[coord] = 100 * np.abs(q[: len(ref), joints.index(coord)] - ref[:, c]).max() / peak
    return out
def reduced(path):
    with h5py.File(path, "r") as f:
        return f["qfrc_reduced"][()]
# With the splines: the generalised forces of OpenSim's model, which has no constraint
# (qfrc_joint plus the knee equalities' force, there as the MJCF's quartics disagree with the
# splines' positions, and translation1's limit at the most flexed rows), each knee translation's force moved onto its knee angle by the spline's slope.
with h5py.File(splines_run, "r") as f, h5py.File(splines, "r") as s:
    g, slope = f["qfrc_joint"][()] + f["qfrc_constraint"][()], s["knee_slope"][()]
for side in "rl":
    for axis in ("translation1", "translation2"):
        dof = joints.index("knee_%s_%s" % (side, axis))
        g[:, joints.index("knee_angle_" + side)] += slope[:, dof] * g[:, dof]
        g[:, dof] = 0
a, b, c, d = (errors(r) for r in (reduced(opensim_run), reduced(jocoik_run), reduced(faithful_run), g))
goal = ["hip_flexion_r", "hip_flexion_l", "knee_angle_r", "knee_angle_l", "ankle_angle_r",
        "ankle_angle_l", "pelvis_tilt", "pelvis_list", "pelvis_rotation", "pelvis_tx", "pelvis_ty",
        "pelvis_tz"]
print("| coordinate | conversion, OpenSim's IK, % | conversion, joco-ik, % | faithful, OpenSim's IK, % "
      "| faithful + OpenSim's knee splines, % | goal <= 10% (conversion / faithful / splines) |")
print("| --- | --- | --- | --- | --- | --- |")
for k in goal + sorted(set(a) - set(goal)):
    met = " / ".join("yes" if e[k] <= 10 else "**no**" for e in (a, c, d)) if k in goal else "-"
    print("| %s | %.1f | %.1f | %.1f | %.2f | %s |" % (k, a[k], b[k], c[k], d[k], met))
EOF
echo
echo "Pelvis tilt and tx miss the goal on both MJCFs for a reason outside joco: MuJoCo's joint equalities"
echo "are quartics, OpenSim's knee translations cubic splines that no quartic follows closely enough (fitted"
echo "over the trial's own knee range, tx is still 10.8%); with OpenSim's knee splines every goal column is"
echo "within 1% (tests MeasuredMotion.OpenSimKneeSplines and ConversionKneeFit)."
