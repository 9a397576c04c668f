#!/usr/bin/env bash
# bench/sections/15-stages.sh REPS: time per pipeline stage, joco-profile's stage timers beside
# mujoco-testspeed's profiler, and what joco's always-on timers cost (joco-profile --timer-overhead),
# on the models of the engine goal. JOCO_BENCH_STEPS steps per run (default 10000).
. "$(dirname "$0")/lib.sh"
need "$TOOLS/joco-profile" mujoco-testspeed

steps=${JOCO_BENCH_STEPS:-10000}
models=$GOAL_MODELS
stages="step forward position velocity actuation acceleration constraint pos_kinematics pos_inertia pos_collision pos_make pos_project"

# "ms per step" of each stage from one program's table ("  stage : ms ...") into $TMP/PREFIX_stage.
stage_times() {
  local s
  for s in $stages; do
    { grep -E "^ +$s :" <<<"$2" || true; } | awk '{print $3}' >>"$TMP/$1_$s"
  done
}
mj_run() { stage_times mj "$(mujoco-testspeed "$path" "$steps" 1 0.01 1)"; }
jc_run() { stage_times jc "$("$TOOLS/joco-profile" "$path" --steps "$steps" --ctrl-noise 0.01 -q)"; }

stage_rows=""
overhead_rows=""
while IFS== read -r name path; do
  progress "$name ($path), $REPS rounds"
  for s in $stages; do : >"$TMP/mj_$s"; : >"$TMP/jc_$s"; done
  alternate "$REPS" mj_run jc_run
  for s in $stages; do
    mjs=$(median <"$TMP/mj_$s") jcs=$(median <"$TMP/jc_$s")
    stage_rows+="| $name | $s | $(med %.5f <"$TMP/mj_$s") | $(med %.5f <"$TMP/jc_$s") | $(ratio "$mjs" "$jcs") |"$'\n'
  done
  # joco-profile alternates timers on and off itself (five runs each, the best of each).
  ov=$("$TOOLS/joco-profile" "$path" --steps "$steps" --timer-overhead -q | { grep "Stage timers" || true; })
  on=$(sed -E 's/.*: ([0-9]+) steps per second with.*/\1/' <<<"$ov")
  off=$(sed -E 's/.*with, ([0-9]+) without.*/\1/' <<<"$ov")
  cost=$(sed -E 's/.*cost (-?[0-9.]+) %.*/\1/' <<<"$ov")
  overhead_rows+="| $name | $on | $off | $cost % |"$'\n'
done <<<"$models"

echo "## Time per pipeline stage (ms per step)"
echo
echo "Median (min-max) of $REPS alternating runs of $steps steps: MuJoCo's from testspeed's profiler"
echo "(\`mujoco-testspeed MODEL $steps 1 0.01 1\`, whose timer callback adds its own cost), joco's from its"
echo "built-in stage timers (\`pos_make\` includes transmissions in joco). Ratio: MuJoCo time / joco time"
echo "(> 1: joco faster). No goal of its own: this says where the engine goal's time goes."
echo
echo "| model | stage | MuJoCo | joco | ratio |"
echo "| --- | --- | --- | --- | --- |"
printf "%s" "$stage_rows"
echo
echo "Cost of joco's stage timers (\`joco-profile --timer-overhead\`: $steps steps, five runs with the"
echo "timers on and five off, alternating, the best of each; the timers read the time-stamp counter at"
echo "each stage boundary and stay on). No goal: the cost should be within the noise (a few %)."
echo
echo "| model | steps/s timers on | steps/s timers off | cost |"
echo "| --- | --- | --- | --- |"
printf "%s" "$overhead_rows"
