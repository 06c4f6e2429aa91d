#!/usr/bin/env bash
# Runs fastblur's libFuzzer harnesses (tests/fuzz), one after another, for a given time each.
#
#   tests/fuzz/run_fuzzers.sh [--build-dir DIR] [--seconds N] [--fresh-corpus] [HARNESS...]
#
#   HARNESS         npy, image, blur, cli, serve (default: all five)
#   --build-dir     the asan preset's build directory (default: build-asan)
#   --seconds N     fuzzing time per harness (default 600)
#   --fresh-corpus  fuzz from the seeds and regressions in a temporary corpus (what CI does);
#                   otherwise the corpus grows in BUILD/tests/fuzz/corpus/HARNESS across runs
#
# Each harness first replays every input of tests/fuzz/regressions/HARNESS once (a crash there is a
# regression), then fuzzes from the generated seeds (fastblur_fuzz_seeds), the regressions and its
# corpus. A crash, timeout, leak or out-of-memory leaves its input in
# BUILD/tests/fuzz/artifacts/HARNESS/ and makes the script fail. One summary line per harness:
#   fuzz_npy: 600 s, 1234567 executions (2057/s), coverage 812 edges / 1450 features, corpus 96, no crash
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=build-asan
seconds=600
fresh=0
harnesses=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --fresh-corpus) fresh=1; shift ;;
    npy|image|blur|cli|serve) harnesses+=("$1"); shift ;;
    *) echo "run_fuzzers.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ ${#harnesses[@]} -gt 0 ] || harnesses=(npy image blur cli serve)
build=$(cd "$build" && pwd)
bin=$build/tests/fuzz
[ -x "$bin/fastblur_fuzz_seeds" ] || { echo "run_fuzzers.sh: no fuzz build in $build (cmake --preset asan && cmake --build --preset asan)" >&2; exit 2; }

# The seed corpora, generated once per build (several harnesses may start at the same time).
seeds=$bin/seeds
(
  flock 9
  if [ ! -f "$seeds/.complete" ] || [ "$bin/fastblur_fuzz_seeds" -nt "$seeds/.complete" ]; then
    rm -rf "$seeds"
    "$bin/fastblur_fuzz_seeds" "$seeds" >&2
    touch "$seeds/.complete"
  fi
) 9>"$bin/.seeds.lock"

# Per harness: the largest input worth trying, and libFuzzer's per-input time limit in seconds.
declare -A max_len=([npy]=4096 [image]=65536 [blur]=4096 [cli]=512 [serve]=16384)
# Added to whatever the caller set (ctest's asan preset sets its own): full unwinding at malloc, so
# that leaks inside OpenImageIO show its frames and match lsan.supp; null from impossible mallocs.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:detect_stack_use_after_return=1:fast_unwind_on_malloc=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$here/../sanitizers/lsan.supp:print_suppressions=0"

asan_options=$ASAN_OPTIONS ubsan_options=$UBSAN_OPTIONS
status=0
for h in "${harnesses[@]}"; do
  exe=$bin/fuzz_$h
  regressions=$here/regressions/$h
  artifacts=$bin/artifacts/$h
  logs=$bin/logs
  mkdir -p "$artifacts" "$logs" "$regressions"
  if [ $fresh = 1 ]; then
    corpus=$(mktemp -d "${TMPDIR:-/tmp}/fastblur-fuzz-$h.XXXXXX")
    trap 'rm -rf "$corpus"' EXIT
  else
    corpus=$bin/corpus/$h
    mkdir -p "$corpus"
  fi
  log=$logs/$h.log
  # Sanitizer reports to their own files: the image glue silences fd 2 while a codec runs, which
  # would swallow a report from inside OpenImageIO.
  rm -f "$logs/$h.sanitizer".*
  export ASAN_OPTIONS="$asan_options:log_path=$logs/$h.sanitizer" UBSAN_OPTIONS="$ubsan_options:log_path=$logs/$h.sanitizer"
  common=(-rss_limit_mb=3072 -timeout=30 -max_len=${max_len[$h]} -artifact_prefix="$artifacts/" -print_final_stats=1)

  # 1. Regressions: every past crash, once, each within a time budget of 10 s (the slow units kept
  # there - a radius beyond the image, analyze at sigma 100 - took 2-36 s before they were fixed).
  if [ -n "$(ls -A "$regressions")" ]; then
    if ! "$exe" "${common[@]/#-timeout=30/-timeout=10}" -runs=0 "$regressions" > "$logs/$h.regressions.log" 2>&1; then
      echo "fuzz_$h: a regression input crashes again (log: $logs/$h.regressions.log)"
      tail -n 40 "$logs/$h.regressions.log" | cat -v
      for f in "$logs/$h.sanitizer".*; do [ -f "$f" ] && grep -aE 'ERROR|SUMMARY|#[0-9]+ +0x' "$f" | head -n 30 | cat -v || true; done
      status=1
      continue
    fi
  fi
  # 2. Fuzzing from the seeds, the regressions and the corpus.
  start=$(date +%s)
  touch "$log.start"
  rc=0
  "$exe" "${common[@]}" -max_total_time="$seconds" "$corpus" "$seeds/$h" "$regressions" > "$log" 2>&1 || rc=$?
  elapsed=$(( $(date +%s) - start ))
  # -a: readers print fuzzed bytes (NULs included) into the log, which must not turn it "binary".
  execs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  rate=$(grep -ao 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  last=$(grep -aE '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  if [ $rc -ne 0 ]; then
    echo "fuzz_$h: ${elapsed} s, ${execs:-?} executions (${rate:-?}/s), coverage ${cov:-?} edges / ${ft:-?} features, corpus ${corp:-?}, FAILED (exit $rc; inputs in $artifacts, log $log)"
    grep -aE 'ERROR|SUMMARY|fuzz_[a-z]+: |Test unit written|#[0-9]+ +0x' "$log" | head -n 40 | cat -v
    for f in "$logs/$h.sanitizer".*; do [ -f "$f" ] && grep -aE 'ERROR|SUMMARY|#[0-9]+ +0x' "$f" | head -n 30 | cat -v || true; done
    # The inputs themselves, so that a failure seen only in CI can be replayed and kept as a regression:
    #   base64 -d > tests/fuzz/regressions/HARNESS/NAME
    for f in $(find "$artifacts" -maxdepth 1 -type f -newer "$log.start" 2>/dev/null); do
      echo "input $(basename "$f") ($(stat -c %s "$f") bytes), base64:"
      head -c 65536 "$f" | base64 -w 0; echo
    done
    status=1
  else
    echo "fuzz_$h: ${elapsed} s, ${execs:-?} executions (${rate:-?}/s), coverage ${cov:-?} edges / ${ft:-?} features, corpus ${corp:-?}, no crash"
  fi
  if [ $fresh = 1 ]; then rm -rf "$corpus"; trap - EXIT; fi
done
exit $status
