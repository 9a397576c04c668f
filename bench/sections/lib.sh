# bench/sections/lib.sh: helpers shared by the sections of scripts/bench. A section sources it first:
#     . "$(dirname "$0")/lib.sh"
# which also sets `set -euo pipefail`, moves to the repository root and sets:
#     REPS     repetitions (the section's first argument, default 5)
#     TOOLS    build/tools (joco's programs, a Release build)
#     TMP      a scratch directory, removed when the section exits
#     GOAL_MODELS  the six models of issue 15's engine goal, one name=path a line
# The protocol (scripts/bench): a section prints one markdown section on standard output (a `## `
# heading, two or three lines on what is measured and how, then a table whose rows give the goal and
# whether it is met), progress on standard error (`progress`), and exits 0 even when a goal is not met;
# non-zero only when it cannot measure (`need` exits 2 for a missing program or file).
#
# Numbers (every function reads plain numbers, one a line, on standard input; "nan" when there is none):
#   median              the median
#   spread [FORMAT]     "min-max", each printed with the printf FORMAT when given
#   med FORMAT          "median (min-max)", each printed with the printf FORMAT, e.g. med %.0f
#   ratio A B           A / B with two decimals; "n/a" when B is 0 or either is empty or nan
#   fmt X FORMAT        X printed with FORMAT; "n/a" when X is empty or nan
#   met X OP GOAL       "yes" or "**no**": whether X OP GOAL (OP one of >= > <= <); "n/a" for no X
# Running:
#   alternate N CMD...  N rounds of running each CMD in turn (A B A B ...); each CMD is a command
#                       line (word-split, usually a function of the section) and gets the round
#                       number 1..N as its last argument. Alternating lets every program see the
#                       same machine load; take medians over the rounds. The helpers' own local
#                       variables start with _ (bash's scoping is dynamic: a section's functions
#                       called from them see their locals), so sections name theirs otherwise.
#   value TEXT LABEL    the first number after the colon on the first line of TEXT matching LABEL
#                       (a grep pattern), e.g. value "$out" "Steps per second"
#   timed FILE CMD...   runs CMD (its standard output to /dev/null, standard error kept), appends
#                       "SECONDS KIB" to FILE: wall time from the shell's clock (microseconds) and
#                       the maximum resident set size from /usr/bin/time; returns CMD's exit code
#   col N < FILE        column N of every line (for the files `timed` writes)
#   need PROGRAM|FILE.. exits 2 with a message when a program is not on PATH / a file is missing
#   progress TEXT       TEXT on standard error, prefixed with the section's name
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

REPS=${1:-5}
TOOLS=build/tools
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
BENCH_SECTION=$(basename "$0" .sh)
GOAL_MODELS="humanoid=testdata/mujoco/model/humanoid/humanoid.xml
humanoid100=testdata/mujoco/model/humanoid100/humanoid100.xml
arm26=testdata/mujoco/model/tendon_arm/arm26.xml
anymal_c=testdata/real/anybotics_anymal_c/scene.xml
ur5=testdata/urdf/ur5/ur5_robot.urdf
panda=testdata/urdf/panda/panda.urdf"

median() {
  sort -g | awk '{a[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2];
                                    else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}
spread() {
  sort -g | awk -v f="${1:-}" 'NR == 1 {lo = $1} {hi = $1} END {
    if (NR == 0) print "nan"; else if (f == "") print lo "-" hi; else printf f "-" f "\n", lo, hi }'
}
med() {
  sort -g | awk -v f="$1" '{a[NR] = $1} END {
    if (NR == 0) { print "n/a"; exit }
    m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
    printf f " (" f "-" f ")\n", m, a[1], a[NR] }'
}
ratio() {
  awk -v a="${1:-nan}" -v b="${2:-nan}" \
    'BEGIN {if (a == "nan" || b == "nan" || a == "" || b == "" || b + 0 == 0) print "n/a"; else printf "%.2f\n", a / b}'
}
fmt() { awk -v a="${1:-nan}" -v f="$2" 'BEGIN {if (a == "nan" || a == "" || a == "n/a") print "n/a"; else printf f "\n", a}'; }
met() {
  awk -v x="${1:-nan}" -v op="$2" -v g="$3" 'BEGIN {
    if (x == "nan" || x == "" || x == "n/a") { print "n/a"; exit }
    x += 0; ok = op == ">=" ? x >= g : op == ">" ? x > g : op == "<=" ? x <= g : x < g
    print ok ? "yes" : "**no**" }'
}

alternate() {
  # (locals start with _: the commands see them, bash's scoping is dynamic)
  local _rounds=$1 _round _cmd
  shift
  for ((_round = 1; _round <= _rounds; ++_round)); do
    for _cmd in "$@"; do
      $_cmd "$_round"
    done
  done
}

value() { { grep -m1 -- "$2" <<<"$1" || true; } | sed -E 's/^[^:]*:[[:space:]]*//' | awk '{print $1}'; }

timed() {
  local _file=$1 _rss _start _end _rc=0
  shift
  _rss=$(mktemp -p "$TMP")
  _start=$EPOCHREALTIME
  /usr/bin/time -f %M -o "$_rss" "$@" >/dev/null || _rc=$?
  _end=$EPOCHREALTIME
  echo "$(awk -v a="$_start" -v b="$_end" 'BEGIN {printf "%.6f", b - a}') $(tail -1 "$_rss")" >>"$_file"
  rm -f "$_rss"
  return $_rc
}

col() { awk -v n="$1" '{print $n}'; }

need() {
  local _x
  for _x in "$@"; do
    if [[ $_x == */* ]]; then
      [[ -e $_x ]] || { echo "$BENCH_SECTION: $_x missing (a Release build: scripts/setup)" >&2; exit 2; }
    else
      command -v "$_x" >/dev/null || { echo "$BENCH_SECTION: $_x missing (libmujoco-samples, time)" >&2; exit 2; }
    fi
  done
}

progress() { echo "$BENCH_SECTION: $*" >&2; }
