#!/usr/bin/env bash
# bench/sections/70-python.sh REPS: the joco Python module (python/) beside the C++ tools on the same
# work: `joco.step` in a Python loop against joco-profile's time per step, and `joco.rollout` against
# joco-simulate's batch on the same rollouts and threads (goal: within 1.1x).
. "$(dirname "$0")/lib.sh"
need "$TOOLS/joco-profile" "$TOOLS/joco-simulate" /usr/bin/python3
module=$(ls build/python/joco*.so 2>/dev/null | head -1 || true)
[[ -n $module ]] || { echo "$BENCH_SECTION: build/python/joco*.so missing (CMake's JOCO_PYTHON)" >&2; exit 2; }
export PYTHONPATH=build/python

models="cartpole=testdata/python/cartpole.xml
humanoid=testdata/mujoco/model/humanoid/humanoid.xml"
steps=${JOCO_BENCH_STEPS:-10000}
threads=2
batch=32
horizon=1000

# Microseconds per step of joco.step in a Python loop (zero controls, as the profile below).
py_step() {
  /usr/bin/python3 - "$path" "$steps" <<'PY'
import sys, time
import joco
m = joco.Model.load(sys.argv[1]); d = joco.Data(m); n = int(sys.argv[2]); step = joco.step
t = time.perf_counter()
for _ in range(n):
    step(m, d)
print(f"us: {(time.perf_counter() - t) / n * 1e6:.4f}")
PY
}
# Steps per second of joco.rollout on $batch rollouts of $horizon steps (zero controls).
py_rollout() {
  /usr/bin/python3 - "$path" "$batch" "$horizon" "$threads" <<'PY'
import sys, time
import numpy as np
import joco
m = joco.Model.load(sys.argv[1]); B, T, threads = map(int, sys.argv[2:])
init = joco.get_state(m, joco.Data(m)); ctrl = np.zeros((B, T, m.nu))
t = time.perf_counter()
joco.rollout(m, init, ctrl, threads=threads)
print(f"steps/s: {B * T / (time.perf_counter() - t):.0f}")
PY
}
cpp_step() { value "$("$TOOLS/joco-profile" "$path" --steps "$steps" --ctrl-noise 0 -q 2>&1)" "Steps per second" | awk '{print 1e6 / $1}' >>"$TMP/cs"; }
python_step() { value "$(py_step)" "us" >>"$TMP/ps"; }
# joco-simulate's own figure for the batch's rollouts (its -v summary: steps/s in total, the
# rollouts' wall time, not the process's start or the model's loading), writing qpos only.
cpp_rollout() {
  "$TOOLS/joco-simulate" "$path" --batch "$batch" --steps "$horizon" --threads "$threads" --record qpos \
    -o "$TMP/out.h5" -v 2>&1 | sed -nE 's/.* ([0-9]+) steps\/s in total.*/\1/p' >>"$TMP/cr"
}
python_rollout() { value "$(py_rollout)" "steps/s" >>"$TMP/pr"; }

rows=""
while IFS== read -r name path; do
  progress "$name: $steps steps, $batch x $horizon rollouts, $REPS rounds"
  : >"$TMP/cs"; : >"$TMP/ps"; : >"$TMP/cr"; : >"$TMP/pr"
  alternate "$REPS" cpp_step python_step cpp_rollout python_rollout
  step_ratio=$(ratio "$(median <"$TMP/ps")" "$(median <"$TMP/cs")")
  roll_ratio=$(ratio "$(median <"$TMP/cr")" "$(median <"$TMP/pr")")
  rows+="| $name | $(med %.2f <"$TMP/cs") | $(med %.2f <"$TMP/ps") | $step_ratio | $(med %.0f <"$TMP/cr") | $(med %.0f <"$TMP/pr") | $roll_ratio | $(met "$roll_ratio" "<=" 1.1) |"$'\n'
done <<<"$models"

echo "## Python module: \`joco.step\` and \`joco.rollout\` beside joco-profile and joco-simulate"
echo
echo "Per step: microseconds per \`joco.step(m, d)\` in a Python loop of $steps steps against joco-profile's"
echo "time per step ($steps steps, no control noise), ratio Python / C++ (the call's cost over the step's)."
echo "Rollouts: steps per second of \`joco.rollout\` ($batch rollouts x $horizon steps, $threads threads, zero"
echo "controls) against joco-simulate's own figure for the same batch's rollouts (\`-v\`: steps/s in total,"
echo "writing qpos only), ratio C++ / Python (goal: <= 1.1). Median (min-max) of $REPS alternating rounds."
echo
echo "| model | C++ us/step | Python us/step | ratio | joco-simulate steps/s | joco.rollout steps/s | ratio | goal <= 1.1 met |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
printf "%s" "$rows"
