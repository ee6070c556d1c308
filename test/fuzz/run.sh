#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS on a copy of its seed corpus in
# BUILD/fuzz/corpus (what a run adds stays there; the repository's seeds are
# left alone). Stops at the first crash, leak, hang or undefined behaviour;
# its input is left in BUILD/fuzz/artifacts. Usage: run.sh BUILD SECONDS
set -euo pipefail
build=$1 seconds=$2
seeds=$(cd "$(dirname "$0")" && pwd)/corpus
artifacts=$build/fuzz/artifacts
mkdir -p "$artifacts"
for target in config suppressions trace findings; do
  corpus=$build/fuzz/corpus/$target log=$build/fuzz/$target.log
  mkdir -p "$corpus"
  cp "$seeds/$target"/* "$corpus/"
  # The NOLINT suite's sources are seeds too, read from where they are.
  extra=()
  [ "$target" = suppressions ] && extra=("$seeds/../../suppressions")
  if ! "$build/test/fuzz/${target}_fuzzer" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
       -artifact_prefix="$artifacts/$target-" "$corpus" "${extra[@]}" > "$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz: $target failed (input in $artifacts, log $log)"
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz: $target: $runs inputs in ${seconds} s, nothing found"
done
