#!/usr/bin/env bash
# Many small files: a shell loop of single `fastblur blur` calls against one batch call (issue 14).
#   bench/cli_batch.sh [N=500] [SIGMA=2] [BUILD=build]
# Writes N random 640x480 RGB PNGs to a temporary folder, then times (whole process, /usr/bin/time)
# the loop and the batch alternately, twice each, and checks that both wrote the same pixels.
set -euo pipefail
n=${1:-500}; sigma=${2:-2}; build=${3:-build}
bin=$(cd "$build" && pwd)/fastblur
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$dir" "$n" <<'PY'
import sys, numpy as np
from PIL import Image
d, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(14)
for k in range(n):
    Image.fromarray(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)).save(f"{d}/img{k:04d}.png", compress_level=1)
PY
mkdir -p "$dir/loop" "$dir/batch"
for round in 1 2; do
  /usr/bin/time -f "loop  ($n single calls): %e s" bash -c "for f in \"$dir\"/img*.png; do \"$bin\" blur \"\$f\" \"$dir/loop/\$(basename \"\$f\")\" --sigma $sigma; done"
  /usr/bin/time -f "batch (one call):         %e s, peak %M KB" "$bin" blur "$dir"/img*.png -o "$dir/batch" --sigma "$sigma"
done
cmp <(cat "$dir"/loop/*.png | md5sum) <(cat "$dir"/batch/*.png | md5sum) && echo "same bytes from both"
