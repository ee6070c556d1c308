#!/usr/bin/env python3
"""How fast `torchtidy lsp` answers a save (a benchmark, not a test).

Generates the project of lint_speed.py (5 TUs including torch/torch.h),
opens every file in the server (the first analysis builds the shared PCH),
then, warm, times --repeat saves of an edited file: from its didSave to its
publishDiagnostics. Compares the fastest with clang++-19 -fsyntax-only of the
same file (fastest of 3), and prints the server's resident memory after the
opens and after 50 edits (each saved) spread over the 5 files.

  bench/lsp_latency.py [--build build] [--repeat 5] [--edits 50]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "test", "lsp"))
from lint_speed import TORCH_FLAGS, generate  # noqa: E402
from lsp_client import Client  # noqa: E402


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def save_edit(c, name, n):
    """Edits the file (a new statement, so the cache cannot answer), saves
    it, and returns the seconds from didSave to its diagnostics."""
    text = c.docs[name][0] + "\nstatic int edit_%d = %d;\n" % (n, n)
    c.change(name, text)
    with open(c.path(name), "w") as f:
        f.write(text)
    start = time.monotonic()
    c.notify("textDocument/didSave", {"textDocument": {"uri": c.uri(name)}})
    version = c.docs[name][1]
    msg = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                 and m["params"]["uri"] == c.uri(name) and m["params"].get("version") == version)
    if msg is None:
        raise SystemExit("no diagnostics for %s v%d" % (name, version))
    return time.monotonic() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--edits", type=int, default=50)
    a = ap.parse_args()
    torchtidy = os.path.abspath(os.path.join(a.build, "bin", "torchtidy"))
    root = tempfile.mkdtemp(prefix="torchtidy-lsp-bench-")
    try:
        files, _ = generate(root, 5)
        src = os.path.dirname(files[0])
        c = Client([torchtidy, "lsp"], src, "")
        c.request("initialize", {"processId": os.getpid(), "capabilities": {},
                                 "initializationOptions": {"cacheDir": os.path.join(root, "cache")}})
        c.notify("initialized", {})
        start = time.monotonic()
        names = [os.path.basename(f) for f in files]
        for name in names:
            text = open(c.path(name)).read()
            c.docs[name] = [text, 1]
            c.notify("textDocument/didOpen", {"textDocument": {
                "uri": c.uri(name), "languageId": "cpp", "version": 1, "text": text}})
        for name in names:
            c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                   and m["params"]["uri"] == c.uri(name))
        cold = time.monotonic() - start
        rss_open = rss_mb(c.proc.pid)

        target = names[1]  # a training loop, with findings
        saves = [save_edit(c, target, n) for n in range(a.repeat)]
        syntax = []
        for _ in range(3):
            t = time.monotonic()
            subprocess.run(["clang++-19", "-fsyntax-only"] + TORCH_FLAGS + [c.path(target)], check=True)
            syntax.append(time.monotonic() - t)
        for n in range(a.edits):
            save_edit(c, names[n % len(names)], 1000 + n)
        rss_edits = rss_mb(c.proc.pid)
        c.request("shutdown", None)
        c.notify("exit", None)
        c.proc.wait(timeout=60)

        best = min(saves)
        print("lsp: 5 files opened and analysed, cold (shared PCH built): %.2f s" % cold)
        print("lsp: didSave -> publishDiagnostics, warm, %s: best %.3f s, median %.3f s (%d saves)"
              % (target, best, sorted(saves)[len(saves) // 2], len(saves)))
        print("clang++-19 -fsyntax-only %s: best %.3f s" % (target, min(syntax)))
        print("ratio save/syntax-only: %.3f (target <= 0.1)" % (best / min(syntax)))
        print("server RSS: %.0f MB after opening 5 files, %.0f MB after %d more edits"
              % (rss_open, rss_edits, a.edits))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
