#!/usr/bin/env bash
# The runtime shim's overhead on a CPU training loop (not a test): builds
# bench/shim_overhead.cpp against the system LibTorch, then runs it
# alternately without and with libtorchtidy_rt.so, ROUNDS times each, and
# prints the ratio of the median loop times (target: under 1.05).
#   bench/shim_overhead.sh [BUILD_DIR (default build)] [ITERS (300)] [ROUNDS (7)]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
iters=${2:-300}
rounds=${3:-7}
shim=$build/lib/libtorchtidy_rt.so
[ -f "$shim" ] || { echo "no $shim: build torchtidy_rt first" >&2; exit 2; }
exe=$build/bench/shim_overhead
mkdir -p "$build/bench"
if [ ! -x "$exe" ] || [ "$here/shim_overhead.cpp" -nt "$exe" ]; then
  echo "building $exe ..." >&2
  g++ -std=c++17 -O2 -g "$here/shim_overhead.cpp" -o "$exe" \
    -isystem /usr/include/torch/csrc/api/include -ltorch -ltorch_cpu -lc10
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plain=() shimmed=()
"$exe" 20 > /dev/null # warm the page cache
for ((r = 0; r < rounds; r++)); do
  plain+=("$("$exe" "$iters" | cut -d' ' -f1)")
  shimmed+=("$(TORCHTIDY_TRACE=$tmp/trace.json LD_PRELOAD=$shim "$exe" "$iters" | cut -d' ' -f1)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mp=$(median "${plain[@]}")
ms=$(median "${shimmed[@]}")
size=$(stat -c %s "$tmp/trace.json")
sites=$(python3 -c "import json,sys; t=json.load(open(sys.argv[1])); print(t['summary']['sites'], t['summary']['events'])" "$tmp/trace.json")
echo "iterations: $iters, rounds: $rounds"
echo "without shim: median ${mp} s   (all: ${plain[*]})"
echo "with shim:    median ${ms} s   (all: ${shimmed[*]})"
echo "trace: $size bytes, call sites and events: $sites"
awk -v a="$ms" -v b="$mp" 'BEGIN { printf "overhead ratio: %.3f (target < 1.05)\n", a / b }'
