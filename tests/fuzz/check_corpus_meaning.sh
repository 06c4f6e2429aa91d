#!/bin/sh
# The stored regression inputs of fuzz_blur still decode to the cases they were recorded as
# (regressions/blur.decoded, written when each was found), and no input's meaning depends on the
# registry's order: the regressions and the generated second-format seeds decode to the same cases
# and options with a fake algorithm and a fake parameter put first in the registry the decoder sees
# (FASTBLUR_FUZZ_FAKE_REGISTRY; blur_case.hpp decodes by name, from lists frozen with each format).
#   check_corpus_meaning.sh FUZZ_BLUR_BINARY SEEDS_BINARY
set -eu
bin=$1
seeds_bin=$2
dir=$(dirname "$0")/regressions
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

decode() {  # decode FILE...: each input's verbose lines (the case, its options), named by the file
  for f in "$@"; do
    FASTBLUR_FUZZ_VERBOSE=1 "$bin" "$f" 2>&1 | grep -E '^(case|options):' | awk '!seen[$0]++' | sed "s#^#$(basename "$f"): #"
  done
}

decode "$dir"/blur/* | grep ': case:' > "$work/got"
if ! diff -u "$dir/blur.decoded" "$work/got"; then
  echo "check_corpus_meaning: stored fuzz_blur inputs now decode to other cases (above)" >&2
  exit 1
fi

# The second format's seeds (every algorithm of its list, and the parameters only it carries).
"$seeds_bin" "$work/seeds" > /dev/null 2>&1
v2=$(for f in "$work"/seeds/blur/*; do if [ "$(head -c 4 "$f" | tr -d '\000')" = "FBv2" ]; then echo "$f"; fi; done)
[ -n "$v2" ] || { echo "check_corpus_meaning: the seeds hold no second-format input" >&2; exit 1; }
# shellcheck disable=SC2086
decode "$dir"/blur/* $v2 > "$work/plain"
# shellcheck disable=SC2086
FASTBLUR_FUZZ_FAKE_REGISTRY=1 decode "$dir"/blur/* $v2 > "$work/fake"
if ! diff -u "$work/plain" "$work/fake"; then
  echo "check_corpus_meaning: inputs decode differently when the registry gains an algorithm (above)" >&2
  exit 1
fi
echo "check_corpus_meaning: $(wc -l < "$work/got") stored inputs decode as recorded;" \
     "$(grep -c ': case:' "$work/plain") inputs ($(echo "$v2" | wc -l) of the second format) mean the same with a fake algorithm first"
