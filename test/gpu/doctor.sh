#!/usr/bin/env bash
# GPU check of `torchtidy doctor`, for a machine with an NVIDIA GPU and driver
# (the lit suite in test/doctor covers the failure modes through doubles on
# machines without one). Usage: test/gpu/doctor.sh [BUILD_DIR] (default build).
#
# It runs the doctor on the real driver, prints the table and the --bench
# measures, and checks that:
#   - layer 1 (hardware and driver) and layer 2 (runtime against driver) pass;
#   - with a CPU-only LibTorch (Debian libtorch-dev) the doctor stops at
#     layer 3 with exit status 3; with a CUDA LibTorch all four layers pass
#     (exit 0), the device matmul matches the CPU and every bench measure has
#     a positive value and its unit;
#   - the JSON agrees with the exit status and the schema of docs/doctor.md.
# Exit status 0 when all hold, 1 otherwise.
set -u
HERE=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$HERE/build}
TT=$BUILD/bin/torchtidy
DOCTOR=$BUILD/bin/torchtidy-doctor
[ -x "$TT" ] && RUN=("$TT" doctor) || RUN=("$DOCTOR")
if [ ! -x "${RUN[0]}" ]; then
  echo "doctor.sh: build first (no $TT or $DOCTOR)" >&2
  exit 1
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "== nvidia-smi -L"
nvidia-smi -L 2>&1 || echo "(nvidia-smi not available)"
echo "== torchtidy doctor --bench"
"${RUN[@]}" --bench
RC=$?
echo "(exit status $RC)"
echo "== torchtidy doctor --json --bench"
"${RUN[@]}" --json --bench > "$OUT/doctor.json"
JRC=$?
python3 "$HERE/test/doctor/Inputs/check_schema.py" "$OUT/doctor.json" || exit 1
python3 - "$OUT/doctor.json" "$RC" "$JRC" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rc, jrc = int(sys.argv[2]), int(sys.argv[3])
bad = []
def layer(n):
    return doc["layers"][n - 1]
if rc != jrc or doc["exit_status"] != rc:
    bad.append("exit status %d (table) / %d (json) / %d (json exit_status)" % (rc, jrc, doc["exit_status"]))
for n in (1, 2):
    if layer(n)["verdict"] not in ("ok", "warning"):
        bad.append("layer %d is %s: %s" % (n, layer(n)["verdict"], doc["cause"]))
built = {c["check"]: c for c in layer(3)["checks"]}.get("built with CUDA")
if built is not None and built["verdict"] == "failed":
    print("LibTorch here is a CPU-only build: expecting exit status 3")
    if rc != 3:
        bad.append("expected exit status 3 for a CPU-only LibTorch, got %d" % rc)
elif built is not None:
    if rc != 0:
        bad.append("expected all layers to pass with a CUDA LibTorch, got exit %d: %s" % (rc, doc["cause"]))
    matmuls = [c for c in layer(4)["checks"] if c["check"].endswith(" matmul")]
    if not matmuls or any(c["verdict"] != "ok" for c in matmuls):
        bad.append("device matmul checks: %s" % matmuls)
    if not doc.get("bench"):
        bad.append("no bench measures")
    for m in doc.get("bench", []):
        print("bench: device %d %-28s %10s %s" % (m["device"], m["measure"], m["value"], m["unit"]))
        if not m["value"] or m["value"] <= 0:
            bad.append("bench %s: %s" % (m["measure"], m["error"]))
for b in bad:
    print("doctor.sh: FAIL: " + b)
print("doctor.sh: %s" % ("FAIL" if bad else "PASS"))
sys.exit(1 if bad else 0)
PY
