"""Runs the standalone torchtidy and clang-tidy with the plugin on the same
files and compares their diagnostics (file:line:col: kind: message [id],
each warning with its notes) and their fix-its (torchtidy's JSON report
against clang-tidy's --export-fixes). Exits 1 and prints a diff when they
differ."""
import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import yaml

from run_lines import compile_flags

DIAG = re.compile(r"^(/.*?:\d+:\d+): (warning|error|note): (.*)$")


def diagnostics(output, kinds=("warning", "error")):
    """Groups of lines: a warning or error of the kinds asked for, followed
    by its notes."""
    groups, kept = [], False
    for line in output.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        if m.group(2) == "note":
            if kept:
                groups[-1].append(line)
        else:
            kept = m.group(2) in kinds
            if kept:
                groups.append([line])
    return sorted("\n".join(g) for g in groups)


def torchtidy_fixes(path):
    return sorted((f["check"], x["file"], x["offset"], x["length"], x["replacement"])
                  for f in json.load(open(path))["findings"] for x in f["fixes"])


def clang_tidy_fixes(path):
    if not os.path.exists(path):  # written only when there are diagnostics
        return []
    return sorted((d["DiagnosticName"], r["FilePath"], r["Offset"], r["Length"], r["ReplacementText"])
                  for d in yaml.safe_load(open(path))["Diagnostics"]
                  for r in d["DiagnosticMessage"]["Replacements"])


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtidy", required=True)
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--flags", required=True, help="flags for files whose RUN lines use %%torch_flags")
    ap.add_argument("--cuda-flags", required=True, help="flags for those using %%torch_cuda_flags")
    ap.add_argument("--work-dir", required=True, help="for the reports with the fix-its")
    ap.add_argument("--with-errors", action="store_true",
                    help="the files do not compile: each tool must report an error, and only "
                    "warnings are compared (the tools word Clang's errors differently)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    checks = "--checks=-*,torch-*"
    files = [os.path.abspath(f) for f in a.files]  # torchtidy prints paths without '..'
    tmp = a.work_dir
    # clang-tidy writes no report for a file without diagnostics: a previous
    # run's report under the same name must not be read as this one's.
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    jobs = []
    for f in files:
        flags = compile_flags(f, a.flags, a.cuda_flags)
        if flags is None:  # the input of a .test
            flags = shlex.split(a.flags)
        n = len(jobs)
        jobs.append((f, [a.torchtidy, "--quiet", checks, "--format=json",
                         "--output=%s/%d.json" % (tmp, n), f, "--"] + flags))
        jobs.append((f, [a.clang_tidy, "--load=" + a.plugin, checks, "--quiet",
                         "--export-fixes=%s/%d.yaml" % (tmp, n), f, "--"] + flags))
    # clang-tidy traverses all of LibTorch's AST: run the tools side by side.
    with concurrent.futures.ThreadPoolExecutor(len(os.sched_getaffinity(0))) as pool:
        results = list(pool.map(lambda job: run(job[1]), jobs))
    same = True
    warnings = notes = fixes = 0
    for i in range(0, len(jobs), 2):
        f = jobs[i][0]
        (rc1, out1, err1), (rc2, out2, err2) = results[i], results[i + 1]
        expected = ((3,), (1,)) if a.with_errors else ((0, 1), (0,))
        if rc1 not in expected[0] or rc2 not in expected[1]:
            print("%s: torchtidy exited %d, clang-tidy %d\n%s%s" % (f, rc1, rc2, err1, err2))
            same = False
            continue
        kinds = ("warning",) if a.with_errors else ("warning", "error")
        d1, d2 = diagnostics(out1, kinds), diagnostics(out2, kinds)
        if d1 != d2:
            same = False
            print("%s differs (- torchtidy, + clang-tidy):" % f)
            sys.stdout.writelines(difflib.unified_diff(
                [x + "\n" for x in "\n".join(d1).splitlines()],
                [x + "\n" for x in "\n".join(d2).splitlines()], "torchtidy", "clang-tidy"))
        fix1, fix2 = torchtidy_fixes("%s/%d.json" % (tmp, i)), clang_tidy_fixes("%s/%d.yaml" % (tmp, i))
        if fix1 != fix2:
            same = False
            print("%s: fix-its differ:\n torchtidy  %s\n clang-tidy %s" % (f, fix1, fix2))
        fixes += len(fix1)
        warnings += len(d1)
        notes += "\n".join(d1).count(": note: ")
    print("%d files, %d warnings with %d notes and %d fix-its: %s"
          % (len(jobs) // 2, warnings, notes, fixes, "identical" if same else "DIFFERENT"))
    if warnings == 0:
        print("no warnings at all: the comparison proves nothing")
        return 1
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
