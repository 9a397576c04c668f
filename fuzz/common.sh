# What scripts/fuzz-ci and scripts/fuzz-campaign share (sourced from the repository's root): the
# fuzz build tree, the seeds, one libFuzzer run of one target and what it reports.

fuzz_tree="${JOCO_FUZZ_TREE:-build-fuzz}"

# Configures (clang, JOCO_FUZZ) and builds every target in $fuzz_tree.
fuzz_build() {
  CC=clang CXX=clang++ cmake -S . -B "$fuzz_tree" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DJOCO_FUZZ=ON -DJOCO_BUILD_TESTS=OFF -DJOCO_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$fuzz_tree" --target fuzzers
}

# The built targets' names (jmb_fuzz, ...).
fuzz_targets() {
  local f
  for f in "$fuzz_tree"/fuzz/*_fuzz; do [[ -x "$f" ]] && basename "$f"; done
}

# fuzz_run TARGET WORK LIBFUZZER_ARGS...: runs TARGET on the corpus WORK/corpus/TARGET (seeded from
# WORK/seeds/<name without _fuzz>), artifacts in WORK/findings/TARGET/, log in WORK/TARGET.log
# (WORK/TARGET.wN.log when FUZZ_WORKER=N: one of several processes sharing the corpus, each
# reloading what the others add); returns libFuzzer's status. Hangs are findings after JOCO_FUZZ_TIMEOUT seconds (10), memory after
# 2 GB.
fuzz_run() {
  local target="$1" work="$2"; shift 2
  local seeds="$work/seeds/${target%_fuzz}" corpus="$work/corpus/$target"
  mkdir -p "$corpus" "$work/findings/$target" "$seeds"
  local dict=()
  [[ -f "fuzz/${target%_fuzz}.dict" ]] && dict=(-dict="fuzz/${target%_fuzz}.dict")
  "$fuzz_tree/fuzz/$target" -timeout="${JOCO_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/findings/$target/" "${dict[@]}" "$@" "$corpus" "$seeds" \
    >"$work/$target${FUZZ_WORKER:+.w$FUZZ_WORKER}.log" 2>&1
}

# fuzz_summary TARGET WORK: "executions seconds cov ft corpus findings" from a run's log, or from
# its workers' logs: executions summed, the longest time, the largest counters.
fuzz_summary() {
  local log runs=0 secs="" cov=0 ft=0 corp=0 findings r
  for log in "$2/$1.log" "$2/$1".w*.log; do
    [[ -f "$log" ]] || continue
    r=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    runs=$((runs + ${r:-0}))
    r=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1 | awk '{print $5}' || true)
    [[ -n "$r" ]] && secs=$(( ${secs:-0} > r ? ${secs:-0} : r ))
    r=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}' || true)
    ((${r:-0} > cov)) && cov=$r
    r=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | awk '{print $2}' || true)
    ((${r:-0} > ft)) && ft=$r
    r=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | awk '{print $2}' || true)
    ((${r:-0} > corp)) && corp=$r
  done
  findings=$(find "$2/findings/$1" -type f ! -name 'slow-unit-*' | wc -l)  # slow units are not findings
  echo "$runs ${secs:--} $cov $ft $corp $findings"
}
