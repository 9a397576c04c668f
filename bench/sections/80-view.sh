#!/usr/bin/env bash
# bench/sections/80-view.sh REPS: joco-view's replay page playing in Chromium (issue 18: the page
# plays at the display's frame rate). Headless Chromium draws with SwiftShader, WebGL in software
# on the CPU, and runs requestAnimationFrame at 60 Hz: the display rate here. The humanoid's
# 10,000-step page plays for a few seconds (`#fps=S`: the page counts the frames it draws and
# times its own work per frame); beside it a page that only clears a WebGL canvas each frame shows
# the rate the browser gives any page. With multisampling (the default) the software rasterizer,
# not the page, sets the rate; `#aa=0` turns it off.
. "$(dirname "$0")/lib.sh"
need "$TOOLS/joco-compile" "$TOOLS/joco-simulate" "$TOOLS/joco-view"
browser=${JOCO_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[[ -n $browser ]] || { echo "$BENCH_SECTION: chromium missing (Debian: apt-get install chromium)" >&2; exit 2; }
seconds=${JOCO_BENCH_FPS_SECONDS:-4}

progress "the humanoid's 10,000-step page"
"$TOOLS/joco-compile" testdata/mujoco/model/humanoid/humanoid.xml -o "$TMP/humanoid.jmb"
"$TOOLS/joco-simulate" "$TMP/humanoid.jmb" --steps 10000 --ctrl-noise 0.1 -q -o "$TMP/humanoid.h5"
"$TOOLS/joco-view" "$TMP/humanoid.jmb" "$TMP/humanoid.h5" -o "$TMP/humanoid.html"
page_mb=$(awk -v b="$(stat -c %s "$TMP/humanoid.html")" 'BEGIN {printf "%.2f", b / 1048576}')
cat >"$TMP/empty.html" <<EOF
<!doctype html><html><body style="margin:0"><canvas id="c"></canvas><script>
var c = document.getElementById("c"); c.width = innerWidth; c.height = innerHeight;
var gl = c.getContext("webgl2"), frames = 0, start = 0;
function frame(now) {
  gl.clearColor(frames % 2, 0, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT);
  if (!start) { if (now > 1000) start = now; }
  else if (now - start < 1000 * $seconds) frames++;
  else { console.log("joco-view fps: " + (1000 * frames / (now - start)).toFixed(1)); return; }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
</script></body></html>
EOF

# The line `joco-view fps: ...` a page logs when it has played, from headless Chromium at W,H.
page_fps() {
  local url=$1 size=$2 profile pid waited
  profile=$(mktemp -d -p "$TMP")
  "$browser" --headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader \
    --window-size="$size" --force-device-scale-factor=1 --enable-logging=stderr --v=0 \
    --user-data-dir="$profile" --no-first-run --disable-extensions --mute-audio "$url" \
    >"$profile.log" 2>&1 &
  pid=$!
  for ((waited = 0; waited < 10 * (seconds + 20); ++waited)); do
    grep -q 'joco-view fps:' "$profile.log" && break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pkill -f -- "--user-data-dir=$profile" 2>/dev/null || true
  grep -m1 -o 'joco-view fps: [^"]*' "$profile.log" || true
  rm -rf "$profile" "$profile.log"
}

sizes="320,180 640,360"
cases="empty humanoid humanoid-aa0"
for size in $sizes; do
  for c in $cases; do : >"$TMP/fps-$c-$size" >"$TMP/work-$c-$size"; done
done
run_case() {
  local c=$1 size=$2 url line
  case $c in
    empty) url="file://$TMP/empty.html" ;;
    humanoid) url="file://$TMP/humanoid.html#fps=$seconds" ;;
    humanoid-aa0) url="file://$TMP/humanoid.html#fps=$seconds&aa=0" ;;
  esac
  line=$(page_fps "$url" "$size")
  [[ -n $line ]] || { progress "no fps line from $c at $size"; return; }
  echo "$line" | awk '{print $3}' >>"$TMP/fps-$c-$size"
  # The page's own work per frame: setting poses (and plots, timeline) plus render()'s call.
  echo "$line" | sed -nE 's/.*per frame ([0-9.]+) ms setting poses, ([0-9.]+) ms in render.*/\1 \2/p' |
    awk '{print $1 + $2}' >>"$TMP/work-$c-$size"
}
for ((round = 1; round <= REPS; ++round)); do
  for size in $sizes; do
    for c in $cases; do
      progress "round $round: $c at $size"
      run_case "$c" "$size"
    done
  done
done

cat <<EOF
## Replay page frame rate: joco-view's humanoid page (10,000 steps) playing in headless Chromium

Frames drawn per second while the page plays (\`#fps=$seconds\`: $seconds s after a 1 s warm-up) in Debian's
Chromium, headless, which draws WebGL in software (SwiftShader, on this machine's CPUs: no GPU) and
runs animation frames at 60 Hz, its display rate; beside it a page that only clears a WebGL canvas
each frame (the rate the browser gives any page). "Page work" is the page's own time per frame on
the main thread (setting the bodies' poses, the plots' cursor and the timeline, plus the call to
three.js's \`render()\`): against the 16.7 ms a frame has at 60 Hz. The page is ${page_mb} MB, the full
page with controls and plots; the window's size in pixels. Median (min-max) of $REPS rounds.

| window | page | fps | page work ms/frame |
| --- | --- | --- | --- |
EOF
for size in $sizes; do
  for c in $cases; do
    case $c in
      empty) label="WebGL clear only (the browser's rate)" ;;
      humanoid) label="humanoid, 10,000 steps" ;;
      humanoid-aa0) label="humanoid, 10,000 steps, \`#aa=0\` (no multisampling)" ;;
    esac
    work=$(med %.2f <"$TMP/work-$c-$size")
    [[ $c == empty ]] && work="-"
    echo "| ${size/,/x} | $label | $(med %.1f <"$TMP/fps-$c-$size") | $work |"
  done
done
empty=$(median <"$TMP/fps-empty-320,180")
aa0=$(median <"$TMP/fps-humanoid-aa0-320,180")
worst_work=$(cat "$TMP"/work-humanoid*-* | sort -g | tail -1)
cat <<EOF

| goal | value | goal met |
| --- | --- | --- |
| the 10,000-step page at 320x180, \`#aa=0\`: fps / the browser's rate >= 0.95 | $(ratio "$aa0" "$empty") ($aa0 / $empty fps) | $(met "$(ratio "$aa0" "$empty")" ">=" 0.95) |
| the page's own work per frame, every window and round <= 16.7 ms (a 60 Hz frame) | $(fmt "$worst_work" %.2f) ms | $(met "$worst_work" "<=" 16.7) |

Where the software rasterizer can keep up (the small window without multisampling) the page plays
at the browser's rate; at the larger window and with multisampling SwiftShader's drawing of the
pixels on the CPU sets the rate, while the page's own work stays a few milliseconds per frame. A
machine with a GPU draws those pixels in hardware.
EOF
