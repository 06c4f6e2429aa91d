#!/bin/bash
# Runs fastblur_bench binaries (say, builds of two commits) alternately, ROUNDS times (default 2), on
# the same filter, and prints each case's ms per run, then each case's min and median per binary:
# the before/after runs of bench/RESULTS.md.
#   [ROUNDS=N] bench/alternate_binaries.sh FILTER MIN_TIME BINARY...
set -euo pipefail
filter="$1"; min_time="$2"; shift 2
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
for rep in $(seq "${ROUNDS:-2}"); do
  for bin in "$@"; do
    echo "== $bin rep $rep"
    out=$(OMP_NUM_THREADS=2 "$bin" --benchmark_filter="$filter" --benchmark_min_time="$min_time" 2>&1 |
      sed 's/\x1b\[[0-9;]*m//g' | awk '/real_time/ {print $1, $2}')
    echo "$out"
    echo "$out" | awk -v b="$bin" 'NF == 2 {print b, $1, $2}' >> "$runs"
  done
done
echo "== min / median ms per case and binary"
/usr/bin/python3 - "$runs" <<'EOF'
import collections, statistics, sys
times = collections.defaultdict(list)
binaries = []
for line in open(sys.argv[1]):
    binary, case, ms = line.split()
    times[case, binary].append(float(ms))
    if binary not in binaries:
        binaries.append(binary)
for case in sorted({c for c, _ in times}):
    cells = [f"{b}: {min(times[case, b]):.3g} / {statistics.median(times[case, b]):.3g}"
             for b in binaries if (case, b) in times]
    print(case.replace("/real_time", ""), "  ".join(cells))
EOF
