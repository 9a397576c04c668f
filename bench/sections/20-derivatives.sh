#!/usr/bin/env bash
# bench/sections/20-derivatives.sh REPS: continuous-time derivatives, joco-derivatives --continuous
# beside mujoco-derivative (2.2.2), with both programs' accuracy checks, and joco's transition
# Jacobians (MuJoCo has no program for mjd_transitionFD), on the models of the engine goal.
. "$(dirname "$0")/lib.sh"
need "$TOOLS/joco-derivatives" "$TOOLS/joco-simulate" mujoco-derivative

# The states every `stride` steps of a zero-control rollout, `states` of them (mujoco-derivative's
# nstep and nepoch), 30 solver iterations and 3 warm-up solves (its defaults).
stride=500
states=5
total=$((stride * states))
rows="$stride-$total:$stride"
models=$GOAL_MODELS

mj_run() {
  mj=$(mujoco-derivative "$path" 1 30 3 "$states" "$stride")
  value "$mj" "^forward" >>"$TMP/mj_fwd"
  value "$mj" "^inverse" >>"$TMP/mj_inv"
}
jc_run() {
  jc=$("$TOOLS/joco-derivatives" "$path" --continuous --states "$TMP/run.h5" --rows "$rows" --threads 1 \
    -o "$TMP/deriv.h5" 2>&1 >/dev/null)
  value "$jc" "^forward" >>"$TMP/jc_fwd"
  value "$jc" "^inverse" >>"$TMP/jc_inv"
}

deriv_rows=""
accuracy_rows=""
transition_rows=""
while IFS== read -r name path; do
  progress "$name ($path), $REPS rounds"
  "$TOOLS/joco-simulate" "$path" --steps "$total" -o "$TMP/run.h5" -q
  : >"$TMP/mj_fwd"; : >"$TMP/mj_inv"; : >"$TMP/jc_fwd"; : >"$TMP/jc_inv"
  alternate "$REPS" mj_run jc_run
  nv=$("$TOOLS/joco-profile" "$path" --steps 1 -q | { grep "Degrees of freedom" || true; } | awk -F: '{print $2 + 0}')
  mj_nefc=$({ grep -m1 "^sizes" <<<"$mj" || true; } | sed -E 's/.*nefc ([0-9]+).*/\1/')
  jc_nefc=$({ grep -m1 "^sizes" <<<"$jc" || true; } | sed -E 's/.*nefc ([0-9]+).*/\1/')
  mj_acc=$(sed -n '/^------/,/^$/p' <<<"$mj" | { grep ":" || true; } | awk -F: '{print $2}' | tr -d ' ' | paste -sd'|')
  jc_acc=$(sed -n '/^accuracy/,$p' <<<"$jc" | { grep ":" || true; } | { grep -v accuracy || true; } | awk -F: '{print $2}' | tr -d ' ' | paste -sd'|')
  deriv_rows+="| $name | $nv | ${mj_nefc:-?} / ${jc_nefc:-?} | $(med %.2f <"$TMP/mj_fwd") | $(med %.3f <"$TMP/jc_fwd") | $(ratio "$(median <"$TMP/mj_fwd")" "$(median <"$TMP/jc_fwd")") | $(med %.2f <"$TMP/mj_inv") | $(med %.3f <"$TMP/jc_inv") | $(ratio "$(median <"$TMP/mj_inv")" "$(median <"$TMP/jc_inv")") |"$'\n'
  accuracy_rows+="| $name | MuJoCo | $mj_acc |"$'\n'
  [[ -n $jc_acc ]] && accuracy_rows+="| $name | joco | $jc_acc |"$'\n'
  for centred in "" "--centered"; do
    : >"$TMP/tr"
    for ((r = 0; r < REPS; ++r)); do
      "$TOOLS/joco-derivatives" "$path" --states "$TMP/run.h5" --rows "$rows" $centred -v -o "$TMP/ab.h5" 2>&1 |
        sed -nE 's/.*\(([0-9.]+) ms per state.*/\1/p' >>"$TMP/tr"
    done
    transition_rows+="| $name | ${centred:-forward} | $(med %.3f <"$TMP/tr") |"$'\n'
  done
done <<<"$models"

echo "## Derivatives: \`joco-derivatives --continuous\` beside \`mujoco-derivative MODEL 1 30 3 $states $stride\`"
echo
echo "Milliseconds per state, median (min-max) of $REPS alternating runs, for all nv columns of the three"
echo "forward-dynamics matrices (dqacc/dqpos, dqacc/dqvel, dqacc/dqfrc, including the centre point and its"
echo "3 warm-up solves) and of the three inverse-dynamics matrices, 30 solver iterations per evaluation,"
echo "1 thread, at the states after $stride, $((2 * stride)), ..., $total steps of a zero-control rollout (each engine"
echo "its own rollout; nefc is the mean number of constraint rows there). Ratio: MuJoCo time / joco time"
echo "(> 1: joco faster). Both recompute only the stages each perturbed input reaches. No goal of its"
echo "own (the per-state work of joco-derivatives is in the per-row tools' section)."
echo
echo "| model | nv | nefc MuJoCo / joco | MuJoCo forward ms | joco forward ms | ratio | MuJoCo inverse ms | joco inverse ms | ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
printf "%s" "$deriv_rows"
echo
echo "The accuracy check both print (log10 of relative residuals of identities exact derivatives satisfy,"
echo "last run; each engine at the states of its own rollout):"
echo
echo "| model | engine | G2*F2 - I | G2 - G2' | G1 - G1' | F2 - F2' | G1 + G2*F1 | G0 + G2*F0 | F1 + F2*G1 | F0 + F2*G0 |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
printf "%s" "$accuracy_rows"
echo
echo "joco's transition Jacobians (\`joco-derivatives --states\`, MuJoCo's mjd_transitionFD has no"
echo "command-line program to time beside it) at the same states: ms per state for A, B (and C, D) with the"
echo "model's solver settings, 1 thread, median (min-max) of $REPS runs."
echo
echo "| model | differences | ms per state |"
echo "| --- | --- | --- |"
printf "%s" "$transition_rows"
