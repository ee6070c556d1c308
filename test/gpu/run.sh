#!/usr/bin/env bash
# GPU check of the runtime shim (libtorchtidy_rt.so), for a machine with an
# NVIDIA GPU, its driver and a CUDA build of LibTorch (the CPU suite in
# test/runtime covers everything a CPU LibTorch can show). Not run in the
# session that wrote it: no GPU was lent; run it on one and report.
#
#   test/gpu/run.sh [LIBTORCH_PREFIX]
#
# LIBTORCH_PREFIX: a CUDA LibTorch (the unpacked libtorch zip, or
# $(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')/../..);
# default: $LIBTORCH, else the installed python torch package.
# It builds the shim and a small program against that LibTorch with CMake
# (nothing is downloaded), then checks in the traces that:
#   - cuda.observed is true and evidence is "device";
#   - 20 .item() reads of a CUDA tensor give 20 blocking scalar-reads at
#     their call site, and CUPTI saw synchronizing calls (cuda-sync or a
#     synchronous cuda-memcpy) with positive blocked time;
#   - 20 copies from pageable memory are pinned=false and blocking, 20
#     non_blocking copies from pinned memory are pinned=true and not blocking;
#   - with sync-debug capture on (the default), sync-debug events appear, and
#     the program's stderr carries no sync-debug warning (the shim takes them);
#   - the program's stdout is identical with and without the shim.
# Exit status 0 when all hold, 1 otherwise, 2 when it cannot build.
set -u
HERE=$(cd "$(dirname "$0")/../.." && pwd)
PREFIX=${1:-${LIBTORCH:-}}
if [ -z "$PREFIX" ]; then
  PREFIX=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))' 2>/dev/null || true)
fi
if [ -z "$PREFIX" ] || [ ! -d "$PREFIX/share/cmake/Torch" ]; then
  echo "run.sh: no CUDA LibTorch found (give its prefix, with share/cmake/Torch)" >&2
  exit 2
fi
echo "== LibTorch: $PREFIX"
nvidia-smi -L 2>&1 || echo "(nvidia-smi not available)"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# A standalone CMake project: the shim's sources, plus the GPU program.
mkdir -p "$W/src"
cat > "$W/src/gpu_prog.cpp" <<'CPP'
#include <torch/torch.h>
#include <cstdio>
int main() {
  if (!torch::cuda::is_available()) { std::printf("no cuda\n"); return 4; }
  torch::Device dev(torch::kCUDA, 0);
  auto w = torch::randn({512, 512}, dev);
  float sum = 0;
  for (int i = 0; i < 20; ++i) {
    auto y = torch::mm(w, w);
    sum += y.sum().item<float>();                           // READ_LINE
  }
  auto pageable = torch::randn({1 << 20});
  for (int i = 0; i < 20; ++i)
    auto d = pageable.to(dev);                              // PAGEABLE_LINE
  auto pinned = torch::randn({1 << 20}).pin_memory();
  for (int i = 0; i < 20; ++i)
    auto d = pinned.to(dev, /*non_blocking=*/true);         // PINNED_LINE
  torch::cuda::synchronize();
  std::printf("done %d\n", sum != 0);
  return 0;
}
CPP
cat > "$W/src/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.18)
project(rtgpu CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(Torch REQUIRED CONFIG)
find_package(nlohmann_json 3 REQUIRED)
add_library(torchtidy_rt SHARED $HERE/runtime/shim/Shim.cpp $HERE/runtime/shim/Trace.cpp $HERE/runtime/shim/Cuda.cpp)
target_include_directories(torchtidy_rt PRIVATE $HERE/runtime/shim)
target_link_libraries(torchtidy_rt PRIVATE \${TORCH_LIBRARIES} nlohmann_json::nlohmann_json dl)
find_path(CUPTI_INC cupti.h PATHS /usr/local/cuda/extras/CUPTI/include /usr/local/cuda/include NO_DEFAULT_PATH)
if(CUPTI_INC)
  target_include_directories(torchtidy_rt SYSTEM PRIVATE \${CUPTI_INC})
  target_compile_definitions(torchtidy_rt PRIVATE TORCHTIDY_HAVE_CUPTI)
endif()
add_executable(gpu_prog gpu_prog.cpp)
target_compile_options(gpu_prog PRIVATE -g -O0)
target_link_libraries(gpu_prog PRIVATE \${TORCH_LIBRARIES})
CM
echo "== build"
if ! cmake -S "$W/src" -B "$W/b" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$W/cmake.log" 2>&1 ||
   ! cmake --build "$W/b" -j "$(nproc)" >> "$W/cmake.log" 2>&1; then
  tail -40 "$W/cmake.log"
  exit 2
fi
SHIM=$W/b/libtorchtidy_rt.so
PROG=$W/b/gpu_prog
# The CUDA libraries CUPTI lives beside.
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib64

echo "== run without and with the shim"
"$PROG" > "$W/plain.out" 2> "$W/plain.err"; echo "(plain exit $?)"
TORCHTIDY_TRACE=$W/trace.json LD_PRELOAD=$SHIM "$PROG" > "$W/shim.out" 2> "$W/shim.err"; echo "(shim exit $?)"
cat "$W/shim.err"
FAIL=0
diff "$W/plain.out" "$W/shim.out" > /dev/null || { echo "FAIL: stdout differs with the shim"; FAIL=1; }
grep -q "synchronizing CUDA operation" "$W/shim.err" && { echo "FAIL: sync-debug warnings reached stderr"; FAIL=1; }
[ -f "$W/trace.json" ] || { echo "FAIL: no trace"; exit 1; }
ls -l "$W/trace.json"

READ=$(grep -n READ_LINE "$W/src/gpu_prog.cpp" | cut -d: -f1)
PAGEABLE=$(grep -n PAGEABLE_LINE "$W/src/gpu_prog.cpp" | cut -d: -f1)
PINNED=$(grep -n PINNED_LINE "$W/src/gpu_prog.cpp" | cut -d: -f1)
python3 - "$W/trace.json" "$READ" "$PAGEABLE" "$PINNED" <<'PY' || FAIL=1
import json, subprocess, sys
t = json.load(open(sys.argv[1]))
read, pageable, pinned = (int(x) for x in sys.argv[2:5])
mods = {m["id"]: m["path"] for m in t["modules"]}
exe = t["exe"]
print("cuda:", json.dumps(t["cuda"]))
ok = True
def check(cond, what):
    global ok
    print(("ok:   " if cond else "FAIL: ") + what)
    ok = ok and cond
def lines(e):
    addrs = [hex(off - 1) for mod, off in e["stack"] if mod is not None and mods[mod] == exe]
    if not addrs:
        return set()
    out = subprocess.run(["addr2line", "-e", exe] + addrs, capture_output=True, text=True).stdout
    return {int(l.rsplit(":", 1)[1].split()[0]) for l in out.split() if ":" in l and l.rsplit(":", 1)[1][:1].isdigit()}
check(t["cuda"]["observed"] and t["evidence"] == "device", "CUDA observed, evidence device")
at = lambda kind, line: [e for e in t["events"] if e["kind"] == kind and line in lines(e)]
r = at("scalar-read", read)
check(sum(e["count"] for e in r) == 20 and sum(e["blocking"] for e in r) == 20,
      "20 blocking scalar reads at line %d (got %s)" % (read, [(e["count"], e["blocking"]) for e in r]))
syncs = [e for e in t["events"] if e["kind"] in ("cuda-sync", "cuda-memcpy") and e["blocking"] > 0]
check(bool(syncs) and sum(e["blocked_ns"] for e in syncs) > 0,
      "CUPTI saw blocking syncs/memcpys: %s" % sorted({(e["op"], e["count"]) for e in syncs}))
pg = at("copy", pageable)
check(sum(e["count"] for e in pg if e["pinned"] is False and e["blocking"] == e["count"]) == 20,
      "20 blocking copies from pageable memory at line %d (got %s)" % (pageable, [(e["count"], e["pinned"], e["blocking"]) for e in pg]))
pn = at("copy", pinned)
check(sum(e["count"] for e in pn if e["pinned"] is True and e["blocking"] == 0) == 20,
      "20 non-blocking copies from pinned memory at line %d (got %s)" % (pinned, [(e["count"], e["pinned"], e["blocking"]) for e in pn]))
sd = [e for e in t["events"] if e["kind"] == "sync-debug"]
check(t["cuda"].get("sync_debug", "").startswith("enabled") and sum(e["count"] for e in sd) > 0,
      "sync-debug events (%s; %d)" % (t["cuda"].get("sync_debug"), sum(e["count"] for e in sd)))
print("trace: %d call sites, %d events" % (t["summary"]["sites"], t["summary"]["events"]))
sys.exit(0 if ok else 1)
PY
[ $? -eq 0 ] || FAIL=1
# The join, when the analyzer is built on this machine too.
if [ -x "$HERE/build/bin/torchtidy" ]; then
  echo "== torchtidy confirm (no findings: runtime-only syncs)"
  "$HERE/build/bin/torchtidy" confirm "$W/trace.json" || FAIL=1
fi
[ $FAIL -eq 0 ] && echo "== all GPU checks passed" || echo "== some GPU checks failed"
exit $FAIL
