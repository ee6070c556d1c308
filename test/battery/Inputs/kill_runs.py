"""Kills torchtidy runs with SIGKILL at random moments and checks that every
output is either as the previous run left it or complete.

kill_runs.py RUNS SEED OUTDIR -- TORCHTIDY [ARGS...]
ARGS name OUTDIR/{report.sarif,fixes.yaml,baseline.json} and OUTDIR/cache.
Prints the number of runs killed before they ended, and 'ok'."""
import json
import os
import random
import signal
import subprocess
import sys
import time

runs, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cmd = sys.argv[sys.argv.index("--") + 1:]
random.seed(seed)


def complete(name, data):
    if name.endswith(".yaml"):
        return data.startswith(b"---\n") and data.endswith(b"...\n")
    json.loads(data)  # raises on a torn file
    return True


def outputs():
    got = {}
    for name in ["report.sarif", "fixes.yaml", "baseline.json"]:
        path = os.path.join(out, name)
        if os.path.exists(path):
            got[name] = open(path, "rb").read()
    return got


# One full run first: its time bounds the kill points.
start = time.time()
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
full = time.time() - start
before = outputs()
killed = 0
for i in range(runs):
    # A fresh cache now and then, so that kills land in cache writes too.
    if i % 3 == 0:
        subprocess.run(["rm", "-rf", os.path.join(out, "cache")])
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(random.uniform(0, full * 1.1))
    if p.poll() is None:
        p.send_signal(signal.SIGKILL)
        killed += 1
    p.wait()
    now = outputs()
    for name, data in now.items():
        if data != before.get(name):
            try:
                if not complete(name, data):
                    raise ValueError("incomplete")
            except ValueError as e:
                sys.exit("run %d: %s is neither the previous file nor a complete one: %s"
                         % (i, name, e))
    before = now

# The cache left by the kills: no entry may be torn (a torn one is warned
# about as corrupt).
r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
if "is corrupt" in r.stderr:
    sys.exit("a killed run left a torn cache entry:\n" + r.stderr)
print("killed %d of %d runs" % (killed, runs))
print("ok")
