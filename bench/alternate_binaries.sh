#!/bin/bash
# Runs fastblur_bench binaries (say, builds of two commits) alternately, twice, on the same filter,
# and prints each case's median ms: the before/after runs of bench/RESULTS.md.
#   bench/alternate_binaries.sh FILTER MIN_TIME BINARY...
set -euo pipefail
filter="$1"; min_time="$2"; shift 2
for rep in 1 2; do
  for bin in "$@"; do
    echo "== $bin rep $rep"
    OMP_NUM_THREADS=2 "$bin" --benchmark_filter="$filter" --benchmark_min_time="$min_time" 2>&1 |
      sed 's/\x1b\[[0-9;]*m//g' | awk '/real_time/ {print $1, $2}'
  done
done
