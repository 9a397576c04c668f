#!/usr/bin/env bash
# bench/sections/40-rays.sh REPS: rangefinder speed, joco-profile beside mujoco-testspeed (2.2.2),
# single-threaded, testspeed's control noise 0.01, REPS alternating rounds: the quadruped with 20
# rangefinders over a 201x201 height field (goal >= 1.5x) and among 8 mesh rocks of 4,800 triangles
# (goal >= 1.5x).
# Then callgrind instruction counts per step (Ir of N2 steps minus Ir of N1 steps, so start-up and
# model compilation cancel), a load-independent view of the same ratio; JOCO_BENCH_IR=0 leaves it
# out (it needs valgrind).
. "$(dirname "$0")/lib.sh"
need "$TOOLS/joco-profile" mujoco-testspeed timeout testdata/sensor/quadruped_hfield.xml \
  testdata/sensor/quadruped_mesh.xml

# name|model|steps|Ir steps N1|N2|goal (empty: no goal)
cases="quadruped over a 201x201 height field|testdata/sensor/quadruped_hfield.xml|4000|100|400|1.5
quadruped among mesh rocks|testdata/sensor/quadruped_mesh.xml|2000|10|40|1.5"

mj_run() {
  mj_out=$(timeout 300 mujoco-testspeed "$path" "$n" 1 0.01 0 2>&1 || true)
  value "$mj_out" "Steps per second" >>"$TMP/mj"
}
jc_run() {
  jc_out=$(timeout 300 "$TOOLS/joco-profile" "$path" --steps "$n" --ctrl-noise 0.01 -q 2>&1 || true)
  value "$jc_out" "Steps per second" >>"$TMP/jc"
}
# Instructions (callgrind's "Collected") of one command.
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
}
# Ir per step of joco and of MuJoCo: "joco mujoco".
ir_per_step() {
  local a b c d
  a=$(ir "$TOOLS/joco-profile" "$path" --steps "$n1" --ctrl-noise 0.01 -q)
  b=$(ir "$TOOLS/joco-profile" "$path" --steps "$n2" --ctrl-noise 0.01 -q)
  c=$(ir mujoco-testspeed "$path" "$n1" 1 0.01 0)
  d=$(ir mujoco-testspeed "$path" "$n2" 1 0.01 0)
  awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v n="$((n2 - n1))" \
    'BEGIN {if (a == "" || b == "" || c == "" || d == "") print "nan nan"; else print (b - a) / n, (d - c) / n}'
}

rows=""
ir_rows=""
do_ir=${JOCO_BENCH_IR:-1}
command -v valgrind >/dev/null || do_ir=0
while IFS='|' read -r name path n n1 n2 goal; do
  progress "$name: $n steps, $REPS rounds"
  : >"$TMP/mj"
  : >"$TMP/jc"
  alternate "$REPS" mj_run jc_run
  mjs=$(median <"$TMP/mj")
  jcs=$(median <"$TMP/jc")
  r=$(ratio "$jcs" "$mjs")
  rows+="| $name | $(med %.0f <"$TMP/mj") | $(med %.0f <"$TMP/jc") | $r | >= $goal | $(met "$r" ">=" "$goal") |"$'\n'
  if [[ $do_ir != 0 ]]; then
    progress "$name: callgrind, $n1 and $n2 steps"
    read -r jir mir <<<"$(ir_per_step)"
    ir_rows+="| $name | $(awk -v x="$mir" 'BEGIN {printf "%.0f", x}') | $(awk -v x="$jir" 'BEGIN {printf "%.0f", x}') | $(ratio "$mir" "$jir") |"$'\n'
  fi
done <<<"$cases"

echo "## Rangefinders: height field walk and mesh rays"
echo
echo "A quadruped with 20 rangefinders (4 down, 16 at 10 and 30 degrees below the horizon), steps/s of"
echo "\`joco-profile\` and \`mujoco-testspeed\` (2.2.2), single-threaded, control noise 0.01, medians (min-max) of"
echo "$REPS alternating rounds. Before the walk (c819f68) the height field case ran at about 30 steps/s."
echo
echo "| case | MuJoCo 2.2.2 steps/s | joco steps/s | joco / MuJoCo | goal | met |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '%s' "$rows"
if [[ -n $ir_rows ]]; then
  echo
  echo "Instructions per step (callgrind Ir, difference of two step counts):"
  echo
  echo "| case | MuJoCo Ir/step | joco Ir/step | MuJoCo / joco |"
  echo "| --- | --- | --- | --- |"
  printf '%s' "$ir_rows"
fi
echo
echo "Meshes: joco walks each mesh's bounding-volume hierarchy (boxes over at most 4 faces each, built by"
echo "the compiler, nearest box first, boxes beyond the nearest hit skipped); MuJoCo 2.2.2 tests a ray"
echo "against the geom's box and, when it meets it, every face (4,800 per rock). Before the hierarchy"
echo "(3179d6a) joco tested every face of each rock whose bounding sphere the ray met: 623 steps/s"
echo "against MuJoCo's 959 (0.65x), 9,241,040 Ir/step against 9,601,120."
