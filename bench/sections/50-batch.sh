#!/usr/bin/env bash
# Section "batch" of scripts/bench: joco-simulate --batch throughput on 1 and 2 threads, HDF5
# writing included, and peak memory against the number of steps.
. "$(dirname "$0")/lib.sh"

need "$TOOLS/joco-simulate" "$TOOLS/joco-compile" /usr/bin/time
BATCH=16
models="humanoid=testdata/mujoco/model/humanoid/humanoid.xml=4000
anymal_c=testdata/real/anybotics_anymal_c/scene.xml=4000"

# run NAME THREADS STEPS ROUND: one batch, "wall user+sys peak_KiB" appended to $TMP/NAME.tTHREADS
run() {
  local name=$1 threads=$2 steps=$3 out
  out=$(/usr/bin/time -f "%e %U %S %M" "$TOOLS/joco-simulate" "$TMP/$name.jmb" --batch "$BATCH" \
    --steps "$steps" --ctrl-noise 0.1 --threads "$threads" -o "$TMP/out.h5" -q 2>&1 >/dev/null |
    tail -1)
  awk '{printf "%s %.3f %s\n", $1, $2 + $3, $4}' <<<"$out" >>"$TMP/$name.t$threads"
  rm -f "$TMP/out.h5"
}

echo "## Batch rollouts (joco-simulate --batch $BATCH, HDF5 writing included)"
echo
echo "Wall time of a whole batch (model loading and the compressed HDF5 file included) on 1 and 2"
echo "threads, alternating, median (min-max) of $REPS rounds; CPU is user + system time per rollout"
echo "(equal on 1 and 2 threads when the work is parallel). Peak RSS from /usr/bin/time."
echo
echo "| model | steps | threads | wall s | rollouts/s | CPU s per rollout | peak RSS MiB |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
ratios=()
while IFS== read -r name path steps; do
  progress "$name: $REPS rounds of 1 and 2 threads, $BATCH x $steps steps"
  "$TOOLS/joco-compile" "$path" -o "$TMP/$name.jmb" -q
  one="run $name 1 $steps" two="run $name 2 $steps"
  alternate "$REPS" "$one" "$two"
  declare -A wall
  for t in 1 2; do
    f=$TMP/$name.t$t
    wall[$t]=$(col 1 <"$f" | median)
    rate=$(awk -v w="${wall[$t]}" -v b="$BATCH" 'BEGIN {printf "%.2f", b / w}')
    cpu=$(col 2 <"$f" | awk -v b="$BATCH" '{print $1 / b}' | med %.3f)
    rss=$(col 3 <"$f" | awk '{print $1 / 1024}' | med %.0f)
    echo "| $name | $steps | $t | $(col 1 <"$f" | med %.2f) | $rate | $cpu | $rss |"
  done
  ratios+=("$name $(ratio "${wall[1]}" "${wall[2]}")")
done <<<"$models"

# Peak memory against the length of the rollouts: streaming keeps it bounded by the threads.
progress "humanoid: peak RSS at 10,000 and 100,000 steps (2 rollouts, 2 threads)"
rss_of() {
  /usr/bin/time -f %M "$TOOLS/joco-simulate" "$TMP/humanoid.jmb" --batch 2 --steps "$1" \
    --ctrl-noise 0.1 --threads 2 -o "$TMP/out.h5" -q 2>&1 >/dev/null | tail -1
  rm -f "$TMP/out.h5"
}
short=$(rss_of 10000)
long=$(rss_of 100000)
echo
echo "| goal | value | goal met |"
echo "| --- | --- | --- |"
for r in "${ratios[@]}"; do
  read -r name x <<<"$r"
  echo "| $name: throughput on 2 threads / 1 thread >= 1.9 | $x | $(met "$x" ">=" 1.9) |"
done
growth=$(ratio "$long" "$short")
echo "| humanoid, 2 x 100,000 steps: peak RSS / at 10,000 steps <= 1.1 (bounded) | $growth ($(fmt "$long" %.0f) / $(fmt "$short" %.0f) KiB) | $(met "$growth" "<=" 1.1) |"
