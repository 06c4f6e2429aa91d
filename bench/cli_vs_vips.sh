#!/usr/bin/env bash
# Whole commands on an 11 MPix photo: `fastblur blur` against `vips gaussblur` (libvips-tools), as
# processes, alternately, for JPEG, PNG and TIFF at sigma 4 and 20 (issue 14).
#   bench/cli_vs_vips.sh [RUNS=5] [BUILD=build]
# The photo is SciPy's sample face (scipy.misc.face) enlarged to 3840x2880 RGB. vips gets
# min-ampl 0.001 (its command line refuses less; a radius of about 3.7 sigma against fastblur's 4). Prints, per case, the median
# wall time and peak resident memory of each (/usr/bin/time -f '%e %M') and both output sizes.
set -euo pipefail
runs=${1:-5}; build=${2:-build}
bin=$(cd "$build" && pwd)/fastblur
command -v vips >/dev/null || { echo "vips not found: apt-get install -y libvips-tools" >&2; exit 1; }
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$dir" <<'PY'
import sys, warnings
import numpy as np
from PIL import Image
warnings.simplefilter("ignore")
from scipy import misc
d = sys.argv[1]
im = Image.fromarray(misc.face()).resize((3840, 2880), Image.BICUBIC)
im.save(f"{d}/big.jpg", quality=95)
im.save(f"{d}/big.png", compress_level=4)
im.save(f"{d}/big.tif")
PY
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
printf '%-5s %5s | %9s %9s %9s | %9s %9s %9s | %7s %7s\n' format sigma "fb s" "fb MiB" "fb bytes" "vips s" "vips MiB" "vips bytes" "vips/fb" "mem"
for ext in jpg png tif; do
  for sigma in 4 20; do
    : > "$dir/fb.t"; : > "$dir/vips.t"
    for ((r = 0; r < runs; r++)); do
      /usr/bin/time -o "$dir/t" -f '%e %M' "$bin" blur "$dir/big.$ext" "$dir/fb.$ext" --sigma "$sigma"
      cat "$dir/t" >> "$dir/fb.t"
      /usr/bin/time -o "$dir/t" -f '%e %M' vips gaussblur "$dir/big.$ext" "$dir/vips.$ext" "$sigma" --min-ampl 0.001
      cat "$dir/t" >> "$dir/vips.t"
    done
    fs=$(cut -d' ' -f1 "$dir/fb.t" | median); fm=$(cut -d' ' -f2 "$dir/fb.t" | median)
    vs=$(cut -d' ' -f1 "$dir/vips.t" | median); vm=$(cut -d' ' -f2 "$dir/vips.t" | median)
    printf '%-5s %5s | %9s %9.0f %9s | %9s %9.0f %9s | %7.2f %7.2f\n' "$ext" "$sigma" "$fs" "$(echo "$fm / 1024" | bc -l)" \
      "$(stat -c %s "$dir/fb.$ext")" "$vs" "$(echo "$vm / 1024" | bc -l)" "$(stat -c %s "$dir/vips.$ext")" \
      "$(echo "$vs / $fs" | bc -l)" "$(echo "$fm / $vm" | bc -l)"
  done
done
