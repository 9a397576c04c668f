#!/usr/bin/env bash
# bench/sections/30-per-row-tools.sh [REPS]: the per-row tools against the engine's bare per-call
# time on the same rows (issue 15: every per-row tool within 1.2x, I/O included).
# For each model: rollouts by joco-simulate give the rows (N, and the first N/5 of them); each tool
# runs as a whole process (start-up, reading, writing included) over N rows and over N/5, and its
# time per row is the difference of the two wall times over the difference of the rows, so that
# its fixed start-up (reported on its own, extrapolated to zero rows) does not count per row;
# joco-profile --states FILE --call CALL times the engine call the tool makes per row over the N rows
# held in memory. The three run alternately REPS times; medians of the rounds.
. "$(dirname "$0")/lib.sh"
# The tools measured may come from another build (R30_TOOLS=/path/to/tools: figures before a
# change, from states files they wrote); joco-profile always from build/tools.
MEASURED=${R30_TOOLS:-$TOOLS}
for p in joco-compile joco-simulate joco-inverse joco-derivatives joco-fwdinv-check joco-profile; do
  [[ -x $TOOLS/$p && -x $MEASURED/$p ]] || { echo "30-per-row-tools: $p missing (build the tools)" >&2; exit 2; }
done
# Seconds a command takes (its output discarded); exit 1 (joco-fwdinv-check: a row over its
# threshold) is still a measurement, anything else is not.
r30_seconds() {
  local t0=$EPOCHREALTIME rc=0
  "$@" >/dev/null 2>&1 || rc=$?
  if ((rc > 1)); then echo "30-per-row-tools: failed ($rc): $*" >&2; return 2; fi
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.6f\n", b - a}'
}

# name, model, rows for the forward/inverse tools, rows for the transition and continuous derivatives
# (more rows where a call is cheap, so that start-up stays small beside them)
models="humanoid testdata/mujoco/model/humanoid/humanoid.xml 4000 100 20
ur5 testdata/urdf/ur5/ur5_robot.urdf 10000 300 100
arm26 testdata/mujoco/model/tendon_arm/arm26.xml 20000 1000 300"

echo "## Per-row tools against the engine's per-call time"
echo
echo "Each tool's time per row (one thread, reading the states and writing its HDF5 output included):"
echo "the difference of its whole-process wall times over N rows and over N/5 (the first fifth of the"
echo "same rollout) divided by the difference of the rows, so that its start-up (the time extrapolated"
echo "to zero rows, its own column) does not count per row; against \`joco-profile MODEL --states FILE"
echo "--call CALL\` (the bare engine call over the N rows held in memory). Medians of $REPS alternating"
echo "rounds (min-max). Goal: ratio <= 1.2."
echo
echo "| model | tool | rows N, N/5 | tool us/row | start-up ms | engine call | engine us/call | ratio | goal <= 1.2 |"
echo "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- |"

while read -r name xml rows drows crows; do
  [[ -f $xml ]] || { echo "30-per-row-tools: $xml missing" >&2; exit 2; }
  progress "$name: compiling and simulating"
  m=$TMP/$name.jmb
  $TOOLS/joco-compile "$xml" -o "$m" -q
  # Each states file, and its first fifth (the same rollout, shorter) as FILE.small.h5.
  for f in "$rows $name" "$drows $name.d" "$crows $name.c"; do
    read -r n base <<<"$f"
    $MEASURED/joco-simulate "$m" --steps $((n - 1)) --ctrl-noise 0.1 --seed 1 -o "$TMP/$base.h5" -q
    $MEASURED/joco-simulate "$m" --steps $((n / 5 - 1)) --ctrl-noise 0.1 --seed 1 -o "$TMP/$base.small.h5" -q
  done
  # label | rows | states file (STATES.h5, STATES.small.h5) | profile call | tool command, whose
  # STATES is replaced by the file of each run
  cases="joco-simulate --evaluate|$rows|$name|forward|$MEASURED/joco-simulate $m --evaluate STATES -o $TMP/out.h5 -q
joco-inverse|$rows|$name|inverse|$MEASURED/joco-inverse $m STATES -o $TMP/out.h5 -q
joco-inverse --discrete|$rows|$name|inverse-discrete|$MEASURED/joco-inverse $m STATES --discrete -o $TMP/out.h5 -q
joco-fwdinv-check|$rows|$name|fwdinv|$MEASURED/joco-fwdinv-check $m --states STATES --report json -o $TMP/out.json -q
joco-derivatives|$drows|$name.d|derivatives|$MEASURED/joco-derivatives $m --states STATES -o $TMP/out.h5 -q
joco-derivatives --continuous|$crows|$name.c|derivatives-continuous|$MEASURED/joco-derivatives $m --continuous --states STATES -o $TMP/out.h5 -q"
  while IFS='|' read -r label n states call cmd; do
    progress "$name: $label ($REPS rounds)"
    : >"$TMP/tool" && : >"$TMP/startup" && : >"$TMP/engine"
    small=$((n / 5))
    for ((k = 1; k <= REPS; ++k)); do
      big_s=$(r30_seconds ${cmd//STATES/$TMP/$states.h5}) || exit 2
      small_s=$(r30_seconds ${cmd//STATES/$TMP/$states.small.h5}) || exit 2
      # per row: the difference over the rows' difference; start-up: extrapolated to 0 rows
      awk -v a="$big_s" -v b="$small_s" -v n="$n" -v k="$small" \
        'BEGIN {p = (a - b) / (n - k); printf "%.3f %.3f\n", 1e6 * p, 1e3 * (b - k * p)}' >"$TMP/round"
      col 1 <"$TMP/round" >>"$TMP/tool"
      col 2 <"$TMP/round" >>"$TMP/startup"
      $TOOLS/joco-profile "$m" --states "$TMP/$states.h5" --call "$call" --json 2>/dev/null |
        sed -n 's/.*"time_per_call_us": \([0-9.e+-]*\).*/\1/p' >>"$TMP/engine"
    done
    tool=$(median <"$TMP/tool") engine=$(median <"$TMP/engine")
    ratio=$(awk -v a="$tool" -v b="$engine" 'BEGIN {if (b + 0 > 0) printf "%.2f", a / b; else print "n/a"}')
    goal=$(awk -v r="$ratio" 'BEGIN {if (r == "n/a") print "n/a"; else print (r <= 1.2 ? "yes" : "**no**")}')
    printf '| %s | %s | %s, %s | %.1f (%s) | %s | %s | %.1f (%s) | %s | %s |\n' "$name" "$label" "$n" \
      "$small" "$tool" "$(spread %.1f <"$TMP/tool")" "$(med %.1f <"$TMP/startup")" "$call" "$engine" \
      "$(spread %.1f <"$TMP/engine")" "$ratio" "$goal"
  done <<<"$cases"
done <<<"$models"
echo
echo "Outputs are written uncompressed (\`--compress\` deflates them: 1.3-1.6x smaller files, at more"
echo "instructions than the rows' computation; schemas/trajectory.md, Storage)."
