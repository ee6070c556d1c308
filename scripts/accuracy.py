#!/usr/bin/env python3
"""Precision and recall of torchtidy's checks on a hand-labelled corpus.

Runs torchtidy once per program listed in docs/accuracy/projects.tsv (or
reads the JSON reports a previous run saved), and compares the findings
with docs/accuracy/labels.tsv. A finding and a label match when project,
file, check and line agree (a label's line may be a range "98-103", for a
statement spread over several lines). Findings are counted once per
(project, file, line, check): two copies on one line are one place to fix.
A label with verdict "maybe" is a judgment call (a read in a branch that
runs once, an update guarded by data rather than by `% N`): a finding there
counts neither way, and it is listed apart.

Usage (see docs/accuracy.md):
  scripts/accuracy.py --corpus /work/corpus [--torchtidy BIN] [--out DIR]
  scripts/accuracy.py --corpus /work/corpus --reuse DIR
"""
import argparse
import collections
import csv
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "..", "docs", "accuracy")
TORCH_DIR = "/usr/lib/x86_64-linux-gnu/cmake/Torch"
MISSION = ["torch-hardcoded-device", "torch-copy-in-loop",
           "torch-host-sync-in-loop", "torch-missing-zero-grad",
           "torch-data-parallel"]


def read_tsv(path):
    with open(path, newline="") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return [r for r in rows if not r[rows.fieldnames[0]].startswith("#")]


def compile_db_files(build_dir):
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        return sorted({os.path.join(e["directory"], e["file"]) for e in json.load(f)})


def command_for(unit_dir, mode, args, torchtidy):
    """The torchtidy command line for one program, configuring it first
    with CMake when the table says so."""
    base = [torchtidy, "-j1", "--format=json", "--no-cache"]
    if mode == "cmake":
        build = os.path.join(unit_dir, "build-torchtidy")
        if not os.path.exists(os.path.join(build, "compile_commands.json")):
            subprocess.run(["cmake", "-S", unit_dir, "-B", build,
                            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                            "-DTorch_DIR=" + TORCH_DIR] + shlex.split(args),
                           check=True, stdout=subprocess.DEVNULL)
        return base + ["-p", build] + compile_db_files(build)
    if mode == "flags":
        return base + shlex.split(args)
    raise SystemExit("unknown mode %r" % mode)


def run_unit(corpus, index, row, torchtidy, out_dir):
    unit_dir = os.path.join(corpus, row["project"], row["unit"])
    cmd = command_for(unit_dir, row["mode"], row["args"], torchtidy)
    res = subprocess.run(cmd, cwd=unit_dir, capture_output=True, text=True)
    if not res.stdout.strip():
        sys.stderr.write("torchtidy gave no report for %s/%s:\n%s\n"
                         % (row["project"], row["unit"], res.stderr))
        return {"files": [], "findings": []}
    report = json.loads(res.stdout)
    if out_dir:
        with open(os.path.join(out_dir, unit_name(index, row) + ".json"), "w") as f:
            json.dump(report, f, indent=1)
    return report


def unit_name(index, row):
    return "%02d_%s" % (index, row["project"])


def relative(corpus, project, path):
    """The path inside the project; a finding elsewhere (LibTorch's own
    headers) is shown to the user all the same, so it counts as a false
    positive under its absolute path."""
    root = os.path.realpath(os.path.join(corpus, project))
    path = os.path.realpath(path)
    return os.path.relpath(path, root) if path.startswith(root + os.sep) else "EXTERNAL:" + path


def line_range(text):
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def collect(corpus, units, reports):
    """Findings as a set of (project, file, line, check), and the files that
    did not parse completely with their first errors."""
    found, partial = set(), {}
    for row, rep in zip(units, reports):
        p = row["project"]
        for f in rep.get("files", []):
            if not f.get("complete", True):
                partial[(p, relative(corpus, p, f["file"]))] = f.get("errors", [])[:2]
        for x in rep.get("findings", []):
            found.add((p, relative(corpus, p, x["file"]), x["line"], x["check"]))
    return found, partial


def compare(labels, found):
    matched_findings, hit_labels = set(), set()
    for i, lab in enumerate(labels):
        lo, hi = line_range(lab["line"])
        for fd in found:
            if fd[0] == lab["project"] and fd[1] == lab["file"] \
                    and fd[3] == lab["check"] and lo <= fd[2] <= hi:
                matched_findings.add(fd)
                hit_labels.add(i)
    fps = sorted(found - matched_findings)
    fns = [lab for i, lab in enumerate(labels) if i not in hit_labels]
    return matched_findings, hit_labels, fps, fns


def ratio(a, b):
    return "%.2f" % (a / b) if b else "n/a"


def print_table(labels, found, matched, hit, fps, fns):
    checks = MISSION + sorted({f[3] for f in found} - set(MISSION))
    print("| check | labels | findings | TP (labels found) | FP | FN | precision | recall "
          "| precision without findings in LibTorch's headers |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for c in checks:
        nl = sum(1 for l in labels if l["check"] == c)
        nf = sum(1 for f in found if f[3] == c)
        tp_f = sum(1 for f in matched if f[3] == c)
        tp_l = sum(1 for i in hit if labels[i]["check"] == c)
        nfp = sum(1 for f in fps if f[3] == c)
        nfn = sum(1 for l in fns if l["check"] == c)
        ext = sum(1 for f in found if f[3] == c and f[1].startswith("EXTERNAL:"))
        prec = ratio(tp_f, nf) if c in MISSION else "unlabelled"
        prec_own = ratio(tp_f, nf - ext) if c in MISSION else "unlabelled"
        print("| %s | %d | %d | %d | %d | %d | %s | %s | %s |"
              % (c, nl, nf, tp_l, nfp, nfn, prec, ratio(tp_l, nl), prec_own))


def print_per_project(labels, found, hit, fps):
    print("\n| project | labels | labels found | mission findings | FP |")
    print("| --- | --- | --- | --- | --- |")
    for p in sorted({l["project"] for l in labels} | {f[0] for f in found}):
        print("| %s | %d | %d | %d | %d |" % (
            p, sum(1 for l in labels if l["project"] == p),
            sum(1 for i in hit if labels[i]["project"] == p),
            sum(1 for f in found if f[0] == p and f[3] in MISSION),
            sum(1 for f in fps if f[0] == p and f[3] in MISSION)))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True, help="folder holding one folder per project")
    ap.add_argument("--labels", default=os.path.join(DOCS, "labels.tsv"))
    ap.add_argument("--projects", default=os.path.join(DOCS, "projects.tsv"))
    ap.add_argument("--torchtidy", default="torchtidy")
    ap.add_argument("--out", help="save each program's JSON report here")
    ap.add_argument("--reuse", help="read the JSON reports saved here instead of running")
    ap.add_argument("--only", help="only this project")
    a = ap.parse_args()

    indexed = [(i, u) for i, u in enumerate(read_tsv(a.projects))
               if not a.only or u["project"] == a.only]
    units = [u for _, u in indexed]
    all_labels = [l for l in read_tsv(a.labels)
                  if any(u["project"] == l["project"] for u in units)]
    labels = [l for l in all_labels if l["verdict"] == "flag"]
    maybes = [l for l in all_labels if l["verdict"] == "maybe"]
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    reports = []
    for i, u in indexed:
        if a.reuse:
            with open(os.path.join(a.reuse, unit_name(i, u) + ".json")) as f:
                reports.append(json.load(f))
        else:
            reports.append(run_unit(a.corpus, i, u, a.torchtidy, a.out))

    found, partial = collect(a.corpus, units, reports)
    judged, _, _, _ = compare(maybes, found)
    print("Findings at judgment calls (verdict=maybe, not counted): %d of %d"
          % (len(judged), len(maybes)))
    for p, f, line, c in sorted(judged):
        print("  MAYBE %s %s:%d %s" % (p, f, line, c))
    found -= judged
    matched, hit, fps, fns = compare(labels, found)
    print()
    print_table(labels, found, matched, hit, fps, fns)
    print_per_project(labels, found, hit, fps)
    mission_fps = [f for f in fps if f[3] in MISSION]
    print("\nFalse positives (mission checks): %d" % len(mission_fps))
    for p, f, line, c in mission_fps:
        print("  FP %s %s:%d %s" % (p, f, line, c))
    print("\nFalse negatives: %d" % len(fns))
    for l in fns:
        print("  FN %s %s:%s %s  (%s)" % (l["project"], l["file"], l["line"],
                                          l["check"], l["reason"]))
    others = collections.Counter(f[3] for f in fps if f[3] not in MISSION)
    print("\nOther checks' findings (not labelled): %s" % dict(sorted(others.items())))
    in_partial = [l for l in labels if (l["project"], l["file"]) in partial]
    lost = [l for l in in_partial if l in fns]
    print("\nFiles parsed only in part: %d; labels in them: %d, of which missed (any cause): %d"
          % (len(partial), len(in_partial), len(lost)))
    root = os.path.realpath(a.corpus) + os.sep
    for (p, f), errs in sorted(partial.items(), key=str):
        text = " | ".join(e if isinstance(e, str) else e.get("message", str(e)) for e in errs)
        print("  %s %s: %s" % (p, f, text.replace(root, "<corpus>/")))


if __name__ == "__main__":
    main()
