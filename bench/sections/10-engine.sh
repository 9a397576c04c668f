#!/usr/bin/env bash
# bench/sections/10-engine.sh REPS: simulation speed, joco-profile beside mujoco-testspeed (2.2.2),
# single-threaded, with testspeed's control noise: the six models of the goal (>= 2.0x) with
# JOCO_BENCH_STEPS steps (default 10000) and REPS rounds, then every other model in testdata/ that
# both engines load, each with as many steps as MuJoCo runs in JOCO_BENCH_LIST_SECONDS (default
# 0.1 s; 20 to 20000 steps) and at most 3 rounds (goal: none below 1.0x), worst ratio first.
# JOCO_BENCH_LIST=0 leaves the long list out.
. "$(dirname "$0")/lib.sh"
need "$TOOLS/joco-profile" mujoco-testspeed timeout

steps=${JOCO_BENCH_STEPS:-10000}
list_seconds=${JOCO_BENCH_LIST_SECONDS:-0.1}
list_reps=$((REPS < 3 ? REPS : 3))
models=$GOAL_MODELS

# One round on one model: MuJoCo without its profiler (its timer callback costs time), then joco
# without its stage timers (--no-timers; they cost about 1%: section 15). Appends steps/s to $TMP/mj
# and $TMP/jc; keeps the last output.
mj_run() {
  mj_out=$(timeout 120 mujoco-testspeed "$path" "$n" 1 0.01 0 2>&1 || true)
  value "$mj_out" "Steps per second" >>"$TMP/mj"
}
jc_run() {
  jc_out=$(timeout 120 "$TOOLS/joco-profile" "$path" --steps "$n" --ctrl-noise 0.01 --no-timers -q 2>&1 || true)
  value "$jc_out" "Steps per second" >>"$TMP/jc"
}
# Per-round ratios joco / MuJoCo, for the spread of the ratio.
round_ratios() { paste "$TMP/jc" "$TMP/mj" | awk '$2 > 0 {print $1 / $2}'; }

# measure NAME PATH STEPS ROUNDS: appends "ratio|row" to $TMP/all (the row without the goal columns).
measure() {
  local name=$1 rounds=$4
  path=$2 n=$3
  : >"$TMP/mj"; : >"$TMP/jc"
  alternate "$rounds" mj_run jc_run
  local mjs jcs
  mjs=$(median <"$TMP/mj") jcs=$(median <"$TMP/jc")
  row="| $name | $(value "$jc_out" "Degrees of freedom") | $(value "$mj_out" "Contacts per step") / $(value "$jc_out" "Contacts per step") | $(med %.0f <"$TMP/mj") | $(med %.0f <"$TMP/jc") | $(ratio "$jcs" "$mjs") ($(round_ratios | spread | awk -F- '{printf "%.2f-%.2f", $1, $2}'))"
  echo "$(ratio "$jcs" "$mjs")|$row" >>"$TMP/all"
}

: >"$TMP/all"
main_rows=""
while IFS== read -r name path; do
  progress "$name ($path), $steps steps, $REPS rounds"
  measure "$name" "$path" "$steps" "$REPS"
  r=$(tail -1 "$TMP/all" | cut -d'|' -f1)
  main_rows+="$row | >= 2.0 | $(met "$r" ">=" 2.0) |"$'\n'
done <<<"$models"

# The long list: every MJCF and URDF file in testdata/ but the six above. A file is skipped, with
# the reason, when MuJoCo refuses it (inputs written to test errors, fragments for <include>) or
# when joco refuses a file MuJoCo loads (a finding: listed apart).
skipped=""
refused=""
count=0
if [[ ${JOCO_BENCH_LIST:-1} != 0 ]]; then
  while read -r path; do
    grep -qxF "$path" <<<"$(cut -d= -f2 <<<"$models")" && continue
    mj_check=$(timeout 60 mujoco-testspeed "$path" 20 1 0.01 0 2>&1 || true)
    if ! grep -q "Steps per second" <<<"$mj_check"; then
      why=$(grep -v '^[[:space:]]*$' <<<"$mj_check" | head -2 | tr '\n' ' ' | tr '|' '/' | cut -c1-150)
      skipped+="| \`$path\` | ${why:-no output} |"$'\n'
      continue
    fi
    jc_check=$(timeout 60 "$TOOLS/joco-profile" "$path" --steps 1 -q 2>&1 || true)
    if ! grep -q "Steps per second" <<<"$jc_check"; then
      why=$(grep -v '^[[:space:]]*$' <<<"$jc_check" | head -2 | tr '\n' ' ' | tr '|' '/' | cut -c1-200)
      refused+="| \`$path\` | ${why:-no output} |"$'\n'
      continue
    fi
    list_steps=$(awk -v s="$(value "$mj_check" "Steps per second")" -v t="$list_seconds" \
      'BEGIN {n = int(s * t); print (n < 20 ? 20 : (n > 20000 ? 20000 : n))}')
    progress "$path, $list_steps steps, $list_reps rounds"
    measure "\`${path#testdata/}\` ($list_steps steps)" "$path" "$list_steps" "$list_reps"
    count=$((count + 1))
  done < <(find testdata \( -name '*.xml' -o -name '*.urdf' \) | LC_ALL=C sort)
fi

list_rows=$(sort -t'|' -k1,1g "$TMP/all" | while IFS= read -r line; do
  r=${line%%|*}
  echo "${line#*|} | $(met "$r" ">=" 1.0) |"
done)
below=$(cut -d'|' -f1 "$TMP/all" | awk '$1 < 1.0' | wc -l)

echo "## Engine speed: \`joco-profile\` beside \`mujoco-testspeed MODEL STEPS 1 0.01 0\`"
echo
echo "Steps per second from the initial state with testspeed's control noise (0.01), one thread, median"
echo "(min-max) of alternating runs; the ratio is joco / MuJoCo of the medians (min-max of the per-round"
echo "ratios), > 1: joco is faster. MuJoCo runs without its profiler, joco without its stage timers"
echo "(\`--no-timers\`). Equal contacts per step mean both engines follow the same trajectory. The URDF"
echo "files are loaded directly by both programs. Goal: >= 2.0x on these six, $steps steps, $REPS rounds:"
echo
echo "| model | nv | contacts/step MuJoCo / joco | MuJoCo steps/s | joco steps/s | joco / MuJoCo | goal | met |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
printf "%s" "$main_rows"
echo
if [[ ${JOCO_BENCH_LIST:-1} != 0 ]]; then
  echo "Every model in \`testdata/\` that both engines load ($count files beside the six above, which are"
  echo "included with their figures from above), worst ratio first: $list_reps rounds each, of as many steps as"
  echo "MuJoCo runs in $list_seconds s (in parentheses; fewer steps and rounds than above to keep the section within"
  echo "a few minutes, so these figures are less certain than the six above)."
  echo "Goal: none below 1.0x; $below below."
  echo
  echo "| model | nv | contacts/step MuJoCo / joco | MuJoCo steps/s | joco steps/s | joco / MuJoCo | goal >= 1.0 |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  echo "$list_rows"
  echo
  if [[ -n $refused ]]; then
    echo "Files MuJoCo loads but joco refuses (not timed):"
    echo
    echo "| file | joco's message |"
    echo "| --- | --- |"
    printf "%s" "$refused"
    echo
  fi
  echo "<details><summary>Files MuJoCo 2.2.2 refuses (not simulation models: inputs of error tests,"
  echo "fragments for include, ...), not timed</summary>"
  echo
  echo "| file | MuJoCo's message |"
  echo "| --- | --- |"
  printf "%s" "$skipped"
  echo
  echo "</details>"
fi
