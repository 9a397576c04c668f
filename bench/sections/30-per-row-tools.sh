#!/usr/bin/env bash
# bench/sections/30-per-row-tools.sh [REPS]: the per-row tools against the engine's bare per-call
# cost on the same rows (issue 15: every per-row tool within 1.2x, I/O included).
# For each model: rollouts by joco-simulate give the rows (N, and the first N/5 of them); each tool
# runs as a whole process (start-up, reading, writing included) over N rows and over N/5, and its
# cost per row is the difference of the two over the difference of the rows, so that its fixed
# start-up (reported on its own, extrapolated to zero rows) does not count per row; `joco-profile
# --states FILE --call CALL --from-row N/5` gives the engine call the tool makes per row over the
# same rows N/5..N, held in memory. Two measures:
# - instructions (callgrind, load independent, run once on a tenth of the rows): the goal is
#   judged on this ratio, which does not move with the machine's load;
# - wall time: REPS alternating rounds, each run K times per round (R30_K, default 3) and the
#   fastest kept (the least disturbed by other load), medians of the rounds with their spreads.
# R30_IR=0 leaves the instruction counts out (no valgrind: left out, said in the table);
# R30_ONLY=NAME measures that model alone (humanoid, ur5 or arm26), R30_CASES=REGEX only the tools
# whose label matches (runs split this way may go in parallel: the counts do not change).
. "$(dirname "$0")/lib.sh"
# The tools measured may come from another build (R30_TOOLS=/path/to/tools: figures before a
# change, from states files they wrote); joco-profile always from build/tools.
MEASURED=${R30_TOOLS:-$TOOLS}
K=${R30_K:-3}
IR=${R30_IR:-1}
for p in joco-compile joco-simulate joco-inverse joco-derivatives joco-fwdinv-check joco-profile; do
  [[ -x $TOOLS/$p && -x $MEASURED/$p ]] || { echo "30-per-row-tools: $p missing (build the tools)" >&2; exit 2; }
done
if ((IR)) && ! command -v valgrind >/dev/null; then
  progress "valgrind missing: no instruction counts"
  IR=0
fi

# Seconds a command takes (its output discarded); exit 1 (joco-fwdinv-check: a row over its
# threshold) is still a measurement, anything else is not.
r30_seconds() {
  local t0=$EPOCHREALTIME rc=0
  "$@" >/dev/null 2>&1 || rc=$?
  if ((rc > 1)); then echo "30-per-row-tools: failed ($rc): $*" >&2; return 2; fi
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.6f\n", b - a}'
}
# The fastest of K runs of a command, in seconds.
r30_fastest() {
  local k
  for ((k = 0; k < K; ++k)); do r30_seconds "$@" || return 2; done | sort -g | head -1
}
# The fastest of K engine timings (microseconds per call) of joco-profile ARGS --json.
r30_engine() {
  local k
  for ((k = 0; k < K; ++k)); do
    $TOOLS/joco-profile "$@" --json 2>/dev/null | sed -n 's/.*"time_per_call_us": \([0-9.e+-]*\).*/\1/p'
  done | sort -g | head -1
}
# Instructions a command executes (callgrind's count; its output discarded), summed over its
# processes: the tools check an HDF5 input by reading it whole in a child process first, and that
# reading is theirs (the first count alone, the child's, made joco-inverse 3.8 kIr a row).
r30_ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | awk '{s += $1} END {printf "%d\n", s}'
}

# name, model, rows for the forward/inverse tools, rows for the transition and continuous derivatives
# (more rows where a call is cheap, so that start-up stays small beside them)
models="humanoid testdata/mujoco/model/humanoid/humanoid.xml 4000 100 40
ur5 testdata/urdf/ur5/ur5_robot.urdf 10000 300 200
arm26 testdata/mujoco/model/tendon_arm/arm26.xml 20000 1000 600"

echo "## Per-row tools against the engine's per-call time"
echo
echo "Each tool's cost per row (one thread, reading the states and writing its HDF5 output included):"
echo "the difference of its whole-process costs over N rows and over N/5 (the first fifth of the same"
echo "rollout) divided by the difference of the rows, so that its start-up (the time extrapolated to"
echo "zero rows, its own column) does not count per row; against \`joco-profile MODEL --states FILE"
echo "--call CALL --from-row N/5\` (the bare engine call over the same rows, held in memory)."
echo "Instructions (callgrind, on a tenth of the rows: \"Ir rows\") do not depend on the machine's"
echo "load, so the goal is judged on their ratio (copies count an instruction per byte under"
echo "valgrind, so I/O weighs more there than in time). Wall times: the fastest of $K runs in each of"
echo "$REPS alternating rounds, medians of the rounds (min-max). Goal: ratio <= 1.2."
echo
echo "| model | tool | rows N, N/5 | tool us/row | start-up ms | engine call | engine us/call | wall ratio | Ir rows | tool kIr/row | engine kIr/call | Ir ratio | goal <= 1.2 (Ir) |"
echo "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"

while read -r name xml rows drows crows; do
  [[ -z ${R30_ONLY:-} || $name == "$R30_ONLY" ]] || continue
  [[ -f $xml ]] || { echo "30-per-row-tools: $xml missing" >&2; exit 2; }
  progress "$name: compiling and simulating"
  m=$TMP/$name.jmb
  $TOOLS/joco-compile "$xml" -o "$m" -q
  # Each states file, its first fifth (the same rollout, shorter) as FILE.small.h5, and for the
  # instruction counts a tenth of the rows (at least 10) and its fifth, FILE.ir.h5, FILE.ir.small.h5.
  for f in "$rows $name" "$drows $name.d" "$crows $name.c"; do
    read -r n base <<<"$f"
    ni=$((n / 10 < 10 ? 10 : n / 10))
    for g in "$n $base" "$((n / 5)) $base.small" "$ni $base.ir" "$((ni / 5)) $base.ir.small"; do
      read -r k file <<<"$g"
      $MEASURED/joco-simulate "$m" --steps $((k - 1)) --ctrl-noise 0.1 --seed 1 -o "$TMP/$file.h5" -q
    done
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
    [[ -z ${R30_CASES:-} || $label =~ $R30_CASES ]] || continue
    progress "$name: $label ($REPS rounds of $K runs)"
    : >"$TMP/tool" && : >"$TMP/startup" && : >"$TMP/engine"
    small=$((n / 5))
    for ((round = 1; round <= REPS; ++round)); do
      big_s=$(r30_fastest ${cmd//STATES/$TMP/$states.h5}) || exit 2
      small_s=$(r30_fastest ${cmd//STATES/$TMP/$states.small.h5}) || exit 2
      # per row: the difference over the rows' difference; start-up: extrapolated to 0 rows
      awk -v a="$big_s" -v b="$small_s" -v n="$n" -v k="$small" \
        'BEGIN {p = (a - b) / (n - k); printf "%.3f %.3f\n", 1e6 * p, 1e3 * (b - k * p)}' >"$TMP/round"
      col 1 <"$TMP/round" >>"$TMP/tool"
      col 2 <"$TMP/round" >>"$TMP/startup"
      r30_engine "$m" --states "$TMP/$states.h5" --call "$call" --from-row "$small" >>"$TMP/engine"
    done
    tool=$(median <"$TMP/tool") engine=$(median <"$TMP/engine")
    wall_ratio=$(ratio "$tool" "$engine")
    # Instructions: the tool over the rows ni/5..ni, the engine over the same rows (two passes
    # less one, so that reading the file and setting up do not count).
    ir_cols="n/a | n/a | n/a | n/a" ir_ratio=n/a
    if ((IR)); then
      progress "$name: $label (instructions)"
      ni=$((n / 10 < 10 ? 10 : n / 10)) si=$((n / 10 < 10 ? 2 : n / 50))
      a=$(r30_ir ${cmd//STATES/$TMP/$states.ir.h5})
      b=$(r30_ir ${cmd//STATES/$TMP/$states.ir.small.h5})
      p2=$(r30_ir $TOOLS/joco-profile "$m" --states "$TMP/$states.ir.h5" --call "$call" --from-row "$si" --repeat 2)
      p1=$(r30_ir $TOOLS/joco-profile "$m" --states "$TMP/$states.ir.h5" --call "$call" --from-row "$si")
      tool_ir=$(awk -v a="$a" -v b="$b" -v n=$((ni - si)) 'BEGIN {printf "%.1f", (a - b) / n / 1e3}')
      engine_ir=$(awk -v a="$p2" -v b="$p1" -v n=$((ni - si)) 'BEGIN {printf "%.1f", (a - b) / n / 1e3}')
      ir_ratio=$(ratio "$tool_ir" "$engine_ir")
      ir_cols="$ni, $si | $tool_ir | $engine_ir | $ir_ratio"
    fi
    printf '| %s | %s | %s, %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$label" "$n" "$small" \
      "$(med %.1f <"$TMP/tool")" "$(med %.1f <"$TMP/startup")" "$call" "$(med %.1f <"$TMP/engine")" \
      "$wall_ratio" "$ir_cols" "$(met "$ir_ratio" "<=" 1.2)"
  done <<<"$cases"
done <<<"$models"
echo
echo "Outputs are written uncompressed (\`--compress\` deflates them: 1.3-1.6x smaller files, at more"
echo "instructions than the rows' computation; schemas/trajectory.md, Storage)."
