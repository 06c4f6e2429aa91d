#!/bin/sh
# The stored regression inputs of fuzz_blur still decode to the cases they were recorded as
# (regressions/blur.decoded, written when each was found): adding an algorithm or a parameter must
# not change what an old input means (blur_case.hpp: algorithms by their place in the registry).
#   check_corpus_meaning.sh FUZZ_BLUR_BINARY
set -eu
bin=$1
dir=$(dirname "$0")/regressions
got=$(mktemp)
trap 'rm -f "$got"' EXIT
for f in "$dir"/blur/*; do
  FASTBLUR_FUZZ_VERBOSE=1 "$bin" "$f" 2>&1 | grep '^case:' | uniq | sed "s#^#$(basename "$f"): #" >> "$got"
done
if ! diff -u "$dir/blur.decoded" "$got"; then
  echo "check_corpus_meaning: stored fuzz_blur inputs now decode to other cases (above)" >&2
  exit 1
fi
echo "check_corpus_meaning: $(wc -l < "$got") stored inputs decode as recorded"
