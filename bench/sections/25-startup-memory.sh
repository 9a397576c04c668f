#!/usr/bin/env bash
# bench/sections/25-startup-memory.sh REPS: start-up time and peak memory of the whole process,
# joco beside mujoco-testspeed (2.2.2): wall time and maximum resident set size of a one-step run
# (loading the libraries, reading and compiling the model, making the Data, one step, exit),
# alternating, max(REPS, 5) rounds. Goal: joco's no larger than testspeed's on humanoid.
. "$(dirname "$0")/lib.sh"
need "$TOOLS/joco-profile" "$TOOLS/joco-simulate" mujoco-testspeed /usr/bin/time

rounds=$((REPS < 5 ? 5 : REPS))
models="humanoid=testdata/mujoco/model/humanoid/humanoid.xml
humanoid100=testdata/mujoco/model/humanoid100/humanoid100.xml
arm26=testdata/mujoco/model/tendon_arm/arm26.xml
anymal_c=testdata/real/anybotics_anymal_c/scene.xml
ur5=testdata/urdf/ur5/ur5_robot.urdf"

# The floor: the programs doing nothing (joco's prints its version, testspeed its usage), i.e.
# starting the process and loading and relocating the shared libraries.
mj_none() { timed "$TMP/mj" mujoco-testspeed || true; }
jc_none() { timed "$TMP/jc" "$TOOLS/joco-profile" --version; }
mj_one() { timed "$TMP/mj" mujoco-testspeed "$path" 1 1 0 0; }
jc_one() { timed "$TMP/jc" "$TOOLS/joco-profile" "$path" --steps 1 -q; }
sim_one() { timed "$TMP/sim" "$TOOLS/joco-simulate" "$path" --steps 1 -o "$TMP/one.h5" -q; }

# row LABEL GOAL?: a table row from $TMP/mj, $TMP/jc and $TMP/sim (when filled).
row() {
  local mjt jct mjm jcm sim_cols="| - | -"
  mjt=$(col 1 <"$TMP/mj" | median) jct=$(col 1 <"$TMP/jc" | median)
  mjm=$(col 2 <"$TMP/mj" | median) jcm=$(col 2 <"$TMP/jc" | median)
  if [[ -s $TMP/sim ]]; then
    sim_cols="| $(col 1 <"$TMP/sim" | awk '{print $1 * 1000}' | med %.0f) | $(col 2 <"$TMP/sim" | awk '{print $1 / 1024}' | med %.1f)"
  fi
  local goal="| - | -"
  if [[ ${2:-} == goal ]]; then
    goal="| time and RSS <= testspeed's | $(met "$jct" "<=" "$mjt") / $(met "$jcm" "<=" "$mjm")"
  fi
  echo "| $1 | $(col 1 <"$TMP/mj" | awk '{print $1 * 1000}' | med %.0f) | $(col 1 <"$TMP/jc" | awk '{print $1 * 1000}' | med %.0f) | $(ratio "$jct" "$mjt") | $(col 2 <"$TMP/mj" | awk '{print $1 / 1024}' | med %.1f) | $(col 2 <"$TMP/jc" | awk '{print $1 / 1024}' | med %.1f) | $(ratio "$jcm" "$mjm") $sim_cols $goal |"
}

rows=""
progress "no model, $rounds rounds"
: >"$TMP/mj"; : >"$TMP/jc"; : >"$TMP/sim"
alternate "$rounds" mj_none jc_none
rows+="$(row "(no model: the program alone)")"$'\n'
while IFS== read -r name path; do
  progress "$name ($path), $rounds rounds"
  : >"$TMP/mj"; : >"$TMP/jc"; : >"$TMP/sim"
  alternate "$rounds" mj_one jc_one sim_one
  rows+="$(row "$name" "$([[ $name == humanoid ]] && echo goal)")"$'\n'
done <<<"$models"

echo "## Start-up time and peak memory"
echo
echo "The whole process of a one-step run: \`joco-profile MODEL --steps 1\` beside \`mujoco-testspeed MODEL 1 1 0 0\`"
echo "(and \`joco-simulate MODEL --steps 1 -o FILE.h5\`, which also writes HDF5), from exec to exit: loading"
echo "the shared libraries, reading and compiling the model (textures included), making the Data, one"
echo "step. Wall time in ms from the shell's clock and maximum resident set size in MiB (\`/usr/bin/time\`),"
echo "median (min-max) of $rounds alternating rounds; ratio joco / MuJoCo (< 1: joco smaller)."
echo
echo "| model | MuJoCo ms | joco-profile ms | ratio | MuJoCo MiB | joco-profile MiB | ratio | joco-simulate ms | joco-simulate MiB | goal | met (time / RSS) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
printf "%s" "$rows"
