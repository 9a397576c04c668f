#!/usr/bin/env bash
# Section "batch" of scripts/bench: joco-simulate --batch throughput on 1 and 2 threads and on 1
# and 2 MPI ranks, HDF5 writing included, and peak memory against the number of steps and against
# the number of rollouts.
. "$(dirname "$0")/lib.sh"

need "$TOOLS/joco-simulate" "$TOOLS/joco-compile" /usr/bin/time
BATCH=16
# Steps per rollout of the thread rows: a batch of several seconds (a sweep's rollouts are long: the
# issue's example is 16 x 100,000 steps), so that the run's fixed costs (start-up, making and
# closing the file, measured on their own below) weigh as they do in a sweep.
batch_steps=${JOCO_BENCH_BATCH_STEPS:-20000}
models="humanoid=testdata/mujoco/model/humanoid/humanoid.xml=$batch_steps
anymal_c=testdata/real/anybotics_anymal_c/scene.xml=$batch_steps"
# MPI rows when joco-simulate was built with MPI (JOCO_MPI) and mpirun is there.
mpi=
if grep -q '^JOCO_MPI:BOOL=ON' build/CMakeCache.txt 2>/dev/null && command -v mpirun >/dev/null; then
  mpi=(mpirun)
  [[ $(id -u) -eq 0 ]] && mpi+=(--allow-run-as-root)
fi

# run NAME THREADS STEPS RANKS ROUND: one batch, "wall user+sys peak_KiB" appended to
# $TMP/NAME.tTHREADS, or with RANKS > 0 under mpirun -np RANKS to $TMP/NAME.rRANKS (user+sys then
# counts every rank, peak RSS is the largest process's).
run() {
  local name=$1 threads=$2 steps=$3 ranks=$4 out launch=() file=$TMP/$1.t$2
  if ((ranks > 0)); then
    launch=("${mpi[@]}" -np "$ranks")
    file=$TMP/$name.r$ranks
  fi
  out=$(/usr/bin/time -f "%e %U %S %M" "${launch[@]}" "$TOOLS/joco-simulate" "$TMP/$name.jmb" \
    --batch "$BATCH" --steps "$steps" --ctrl-noise 0.1 --threads "$threads" -o "$TMP/out.h5" -q \
    2>&1 >/dev/null | tail -1)
  awk '{printf "%s %.3f %s\n", $1, $2 + $3, $4}' <<<"$out" >>"$file"
  rm -f "$TMP"/out*.h5
}

# pair NAME STEPS SUFFIX ROUND: the machine's own ceiling, no joco thread involved: two independent
# one-thread processes at once, each running half the batch (its own output file), timed together;
# "wall user+sys peak_KiB" appended to $TMP/NAME.pairSUFFIX.
pair() {
  local name=$1 steps=$2 suffix=$3 half=$((BATCH / 2)) out
  local sim=("$TOOLS/joco-simulate" "$TMP/$name.jmb" --steps "$steps" --ctrl-noise 0.1 --threads 1 -q)
  out=$(/usr/bin/time -f "%e %U %S %M" bash -c \
    "$(printf '%q ' "${sim[@]}") --batch $half -o $TMP/outA.h5 & $(printf '%q ' "${sim[@]}") --batch $half --seed $half -o $TMP/outB.h5; wait" \
    2>&1 >/dev/null | tail -1)
  awk '{printf "%s %.3f %s\n", $1, $2 + $3, $4}' <<<"$out" >>"$TMP/$name.pair$suffix"
  rm -f "$TMP"/out*.h5
}

# row MODEL STEPS LABEL FILE: a table row from a file of run's lines; sets `wall` to the median.
row() {
  local f=$4 rate cpu rss
  wall=$(col 1 <"$f" | median)
  rate=$(awk -v w="$wall" -v b="$BATCH" 'BEGIN {printf "%.2f", b / w}')
  cpu=$(col 2 <"$f" | awk -v b="$BATCH" '{print $1 / b}' | med %.3f)
  rss=$(col 3 <"$f" | awk '{print $1 / 1024}' | med %.0f)
  echo "| $1 | $2 | $3 | $(col 1 <"$f" | med %.2f) | $rate | $cpu | $rss |"
}

echo "## Batch rollouts (joco-simulate --batch $BATCH, HDF5 writing included)"
echo
echo "Wall time of a whole batch (model loading and the HDF5 file, uncompressed, included) on 1 and 2"
echo "threads, and on 1 and 2 MPI ranks of one thread (\`mpirun -np N\`, its start and the ranks' files"
echo "joined into one included), alternating, median (min-max) of $REPS rounds; CPU is user + system"
echo "time per rollout (equal on 1 and 2 when the work is parallel). Peak RSS from /usr/bin/time."
echo "Beside them, two independent one-thread processes at once, each half the batch: the speed-up"
echo "the machine itself gives two workers (on a VM whose 2 vCPUs slow each other when both are busy,"
echo "below 2), the ceiling the thread and rank ratios can reach."
echo
echo "| model | steps | threads / ranks | wall s | rollouts/s | CPU s per rollout | peak RSS MiB |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
ratios=() ceilings=() fixed=()
while IFS== read -r name path steps; do
  progress "$name: $REPS rounds of 1 and 2 threads, $BATCH x $steps steps"
  "$TOOLS/joco-compile" "$path" -o "$TMP/$name.jmb" -q
  one="run $name 1 $steps 0" two="run $name 2 $steps 0" both="pair $name $steps .threads"
  alternate "$REPS" "$one" "$two" "$both"
  # The fixed cost of a run: the same batch of one step each, on one thread.
  for ((k = 0; k < REPS; ++k)); do run "$name" 1 1 0; done
  fixed+=("$name: $(col 1 <"$TMP/$name.t1" | tail -n "$REPS" | med %.2f) s")
  head -n "$REPS" "$TMP/$name.t1" >"$TMP/$name.t1.kept" && mv "$TMP/$name.t1.kept" "$TMP/$name.t1"
  row "$name" "$steps" "1 thread" "$TMP/$name.t1"
  one_wall=$wall
  row "$name" "$steps" "2 threads" "$TMP/$name.t2"
  ratios+=("$name: throughput on 2 threads / 1 thread=$(ratio "$one_wall" "$wall")")
  row "$name" "$steps" "2 processes of 1 thread, half the batch each (the machine's ceiling)" "$TMP/$name.pair.threads"
  ceilings+=("$name: 2 independent processes / 1 (no goal: what the machine gives 2 workers)=$(ratio "$one_wall" "$wall")")
done <<<"$models"
if [[ -n $mpi ]]; then
  # A larger batch than the threads' rows (JOCO_BENCH_MPI_BATCH, default 256, about 30 s on one
  # rank): an MPI run's fixed cost (mpirun's start, MPI's set-up and finish, the join; measured
  # below, about half a second here) is one that a cluster sweep of minutes does not notice but a
  # batch of seconds does. The machine's ceiling is measured on the same batch.
  name=humanoid steps=4000 thread_batch=$BATCH BATCH=${JOCO_BENCH_MPI_BATCH:-256}
  progress "$name: $REPS rounds of 1 and 2 MPI ranks, $BATCH x $steps steps"
  one="run $name 1 $steps 1" two="run $name 1 $steps 2" both="pair $name $steps .mpi"
  alternate "$REPS" "$one" "$two" "$both"
  row "$name" "$steps" "1 rank, batch $BATCH" "$TMP/$name.r1"
  one_wall=$wall
  row "$name" "$steps" "2 ranks, batch $BATCH" "$TMP/$name.r2"
  ratios+=("$name: throughput on 2 MPI ranks / 1 rank (batch $BATCH)=$(ratio "$one_wall" "$wall")")
  row "$name" "$steps" "2 processes of 1 thread, half the batch each (the machine's ceiling)" "$TMP/$name.pair.mpi"
  ceilings+=("$name, batch $BATCH: 2 independent processes / 1 rank (no goal: what the machine gives 2 workers)=$(ratio "$one_wall" "$wall")")
  mpi_batch=$BATCH
  for ((k = 0; k < REPS; ++k)); do
    /usr/bin/time -f %e "${mpi[@]}" -np 2 "$TOOLS/joco-simulate" --version 2>&1 >/dev/null | tail -1
  done >"$TMP/launch"
  # The fixed cost of a whole MPI run: 2 ranks, a rollout of one step each, joined.
  for ((k = 0; k < REPS; ++k)); do
    /usr/bin/time -f %e "${mpi[@]}" -np 2 "$TOOLS/joco-simulate" "$TMP/$name.jmb" --batch 2 \
      --steps 1 -q -o "$TMP/out.h5" 2>&1 >/dev/null | tail -1
    rm -f "$TMP"/out*.h5
  done >"$TMP/mpi-fixed"
  mpi_fixed=$(med %.2f <"$TMP/mpi-fixed")
  launch=$(med %.2f <"$TMP/launch")
  BATCH=$thread_batch
else
  ratios+=("humanoid: throughput on 2 MPI ranks / 1 rank=n/a (joco-simulate built without MPI, or no mpirun)")
fi

# Peak memory: streaming keeps it bounded by the threads, whatever the length of the rollouts or
# their number.
rss_of() {  # rss_of ROLLOUTS STEPS
  /usr/bin/time -f %M "$TOOLS/joco-simulate" "$TMP/humanoid.jmb" --batch "$1" --steps "$2" \
    --ctrl-noise 0.1 --threads 2 -o "$TMP/out.h5" -q 2>&1 >/dev/null | tail -1
  rm -f "$TMP/out.h5"
}
progress "humanoid: peak RSS at 10,000 and 100,000 steps (2 rollouts, 2 threads)"
short=$(rss_of 2 10000)
long=$(rss_of 2 100000)
progress "humanoid: peak RSS of 100 and 1,000 rollouts of 50 steps (2 threads)"
few=$(rss_of 100 50)
many=$(rss_of 1000 50)
echo
echo "| goal | value | goal met |"
echo "| --- | --- | --- |"
for r in "${ratios[@]}"; do
  echo "| ${r%%=*} >= 1.9 | ${r#*=} | $(met "${r#*=}" ">=" 1.9) |"
done
for r in "${ceilings[@]}"; do
  echo "| ${r%%=*} | ${r#*=} | - |"
done
growth=$(ratio "$long" "$short")
echo "| humanoid, 2 x 100,000 steps: peak RSS / at 10,000 steps <= 1.1 (bounded) | $growth ($(fmt "$long" %.0f) / $(fmt "$short" %.0f) KiB) | $(met "$growth" "<=" 1.1) |"
growth=$(ratio "$many" "$few")
echo "| humanoid, 1,000 x 50 steps: peak RSS / of 100 rollouts <= 1.1 (bounded) | $growth ($(fmt "$many" %.0f) / $(fmt "$few" %.0f) KiB) | $(met "$growth" "<=" 1.1) |"
echo
echo "A run's fixed cost (the same batch of one step per rollout, one thread: loading the model, making,"
echo "closing and renaming the file), which the thread rows include once whatever the threads: $(IFS=';'; echo "${fixed[*]}" | sed 's/;/; /g')."
if [[ -n $mpi ]]; then
  echo
  echo "The MPI rows run a batch of $mpi_batch (the threads' rows $BATCH): mpirun's own start, $launch s here (median"
  echo "of \`mpirun -np 2 joco-simulate --version\`), and a whole MPI run of 2 ranks and one step each"
  echo "(start, MPI's set-up and finish, the ranks' files joined), $mpi_fixed s, are fixed costs a cluster sweep"
  echo "does not notice."
fi
