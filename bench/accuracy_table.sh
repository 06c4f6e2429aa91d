#!/usr/bin/env bash
# The accuracy table of bench/RESULTS.md: docs/DESIGN.md's metrics for every algorithm at sigma
# 1, 2, 5, 10, 20, 50, from `fastblur analyze --json`. Usage: bench/accuracy_table.sh [path/to/fastblur]
set -euo pipefail
FASTBLUR=${1:-build/fastblur}
run() {  # label, then analyze options
  local label=$1; shift
  for sigma in 1 2 5 10 20 50; do
    if json=$("$FASTBLUR" analyze --json -s "$sigma" "$@" 2>/dev/null); then
      /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.argv[2]); print("| %s | %s | %.6f | %.3g | %.3g | %.3g | %s | %.1f |" % (sys.argv[1], d["sigma"], d["effective_sigma"], d["max_error"], d["l1_error"], d["max_error_2d"], ("%.3g" % d["anisotropy"]) if d["anisotropy"] else "-", d["psnr_db"]))' "$label" "$json"
    else
      echo "| $label | $sigma | not defined at this sigma | | | | | |"
    fi
  done
}
echo "| algorithm | sigma | effective sigma | max error | L1 error | 2D max error | anisotropy | PSNR dB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
run "fir" -a fir
run "fft" -a fft
run "box, 3 passes" -a box --passes 3
run "box, 5 passes" -a box --passes 5
run "box, 3 integer widths" -a box --passes 3 --integer-widths
run "iir Deriche" -a iir --iir-variant deriche
run "iir Young-van Vliet" -a iir --iir-variant young-van-vliet
run "sliding-dct, order 5" -a sliding-dct
run "sliding-dct, order 3" -a sliding-dct --sdct-order 3
run "kawase (solved)" -a kawase
run "downsample" -a downsample
run "dual-kawase" -a dual-kawase
run "mip-poisson" -a mip-poisson
