#!/usr/bin/env bash
# make demo: configure the example project (for its compile_commands.json),
# run torchtidy on it, print the findings and write a SARIF report.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build="$root/$build" ;; esac

cmake -S "$here" -B "$here/build" -G Ninja > "$here/build.log" 2>&1 || { cat "$here/build.log"; exit 1; }
echo "torchtidy -p examples/build (the bundled example project)"
set +e
"$build/bin/torchtidy" -p "$here/build" --format=sarif --output="$here/torchtidy.sarif"
status=$?
set -e
echo
echo "exit status $status (1 = findings); SARIF report: examples/torchtidy.sarif"
[ "$status" -le 1 ]
