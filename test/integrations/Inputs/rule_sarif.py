"""Writes torchtidy's SARIF for the rule test inputs, parsed with the flags
of their RUN lines: one log per set of flags (OUT_DIR/rules-N.sarif), so
that torchtidy analyses the files of a log in parallel."""
import argparse
import os
import subprocess
import sys

from run_lines import compile_flags

ap = argparse.ArgumentParser()
ap.add_argument("--torchtidy", required=True)
ap.add_argument("--flags", required=True)
ap.add_argument("--cuda-flags", required=True)
ap.add_argument("--out-dir", required=True)
ap.add_argument("files", nargs="+")
a = ap.parse_args()
by_flags = {}
for f in a.files:
    flags = compile_flags(f, a.flags, a.cuda_flags)
    if flags is not None:
        by_flags.setdefault(tuple(flags), []).append(f)
for n, (flags, files) in enumerate(sorted(by_flags.items())):
    out = os.path.join(a.out_dir, "rules-%d.sarif" % n)
    rc = subprocess.run([a.torchtidy, "--quiet", "--checks=-*,torch-*", "--format=sarif",
                         "--output=" + out] + files + ["--"] + list(flags),
                        stdout=subprocess.DEVNULL).returncode
    if rc not in (0, 1) or not os.path.exists(out):
        sys.exit("%s: torchtidy exited %d" % (" ".join(files), rc))
print("%d files in %d SARIF logs" % (sum(map(len, by_flags.values())), len(by_flags)))
