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
# the faithful conversion (testdata README, "The faithful conversion"); and with --osim, the knee
# translations moved by the .osim's own SimmSplines of the knee angle (man joco-inverse, "OpenSim's
# coupled coordinates").
XMLF=$TRIAL/model/subject01_simbody_cvt1_npp_faithful.xml
OSIM="--osim $TRIAL/opensim/subject01_simbody.osim"
need $XMLF $TRIAL/opensim/subject01_simbody.osim
id_run() {  # id_run MODEL INPUT OUT [FLAGS...]
  local model=$1 input=$2 out=$3
  shift 3
  # shellcheck disable=SC2086
  $TOOLS/joco-inverse "$model" "$input" $ID_FLAGS "$@" -o "$TMP/$out" -q
}
IKMOT=$TRIAL/reference/subject01_walk1_ik.mot
id_run "$M" $IKMOT id_opensim.h5
id_run "$M" "$TMP/ik_window.h5" id_jocoik.h5
id_run "$XMLF" $IKMOT id_faithful.h5
# shellcheck disable=SC2086
id_run "$M" $IKMOT id_osim.h5 $OSIM
# shellcheck disable=SC2086
id_run "$M" "$TMP/ik_window.h5" id_osim_jocoik.h5 $OSIM
# shellcheck disable=SC2086
id_run "$XMLF" $IKMOT id_osim_faithful.h5 $OSIM
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
echo "inertias, knee quartics fitted to OpenSim's splines); with \`--osim opensim/subject01_simbody.osim\`"
echo "the knee translations follow the .osim's SimmSplines of the processed knee angle instead of the"
echo "MJCF's quartics, and the knee moments take their share by the splines' slopes."
echo
/usr/bin/python3 - "$TRIAL/reference/inverse_dynamics.sto" "$XML" "$TMP/id_opensim.h5" "$TMP/id_jocoik.h5" \
  "$TMP/id_faithful.h5" "$TMP/id_osim.h5" "$TMP/id_osim_faithful.h5" "$TMP/id_osim_jocoik.h5" <<'EOF'
import sys, re, h5py, numpy as np
import xml.etree.ElementTree as ET
sto, xml, *runs = sys.argv[1:]
lines = open(sto).read().splitlines()
head = next(i for i, l in enumerate(lines) if l.strip() == "endheader")
names = lines[head + 1].split("\t")
ref = np.array([[float(v) for v in l.split()] for l in lines[head + 2:] if l.strip()])
# The MJCF's joints in order, one dof each (hinges and slides): their column in qfrc_reduced.
joints = [j.get("name") for j in ET.parse(xml).find("worldbody").iter("joint")]
def errors(path):
    with h5py.File(path, "r") as f:
        q = f["qfrc_reduced"][()]
    out = {}
    for c, name in enumerate(names[1:], start=1):
        coord = re.sub(r"_(moment|force)$", "", name)
        if coord in joints:
            peak = np.abs(ref[:, c]).max()
            out[coord] = 100 * np.abs(q[: len(ref), joints.index(coord)] - ref[:, c]).max() / peak
    return out
a, b, c, d, e, f = (errors(r) for r in runs)
goal = ["hip_flexion_r", "hip_flexion_l", "knee_angle_r", "knee_angle_l", "ankle_angle_r",
        "ankle_angle_l", "pelvis_tilt", "pelvis_list", "pelvis_rotation", "pelvis_tx", "pelvis_ty",
        "pelvis_tz"]
print("| coordinate | conversion, OpenSim's IK, % | conversion, joco-ik, % | faithful, OpenSim's IK, % "
      "| conversion --osim, OpenSim's IK, % | faithful --osim, OpenSim's IK, % "
      "| conversion --osim, joco-ik, % | goal <= 10% (conversion / faithful / --osim: conversion, faithful) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for k in goal + sorted(set(a) - set(goal)):
    met = " / ".join("yes" if x[k] <= 10 else "**no**" for x in (a, c, d, e)) if k in goal else "-"
    print("| %s | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %s |" % (k, a[k], b[k], c[k], d[k], e[k], f[k], met))
EOF
echo
echo "Without \`--osim\`, pelvis tilt and tx miss the goal on both MJCFs: MuJoCo's joint equalities are"
echo "quartics, OpenSim's knee translations cubic splines that no quartic follows closely enough (fitted"
echo "over the trial's own knee range, tx is still 10.8%). With \`--osim\` every goal column is within 1%"
echo "on both (tests MeasuredMotion.OsimCouplersMeetTheGoals, ConversionKneeFit). From joco-ik's angles"
echo "the pelvis path is the one joco-ik fitted with the quartic knees (joco-ik has no \`--osim\` yet)."
