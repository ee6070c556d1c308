#!/usr/bin/env python3
"""How fast torchtidy analyses one just-edited file, as a pre-commit hook or
an editor does (a benchmark, not a test).

For each include layout real projects have, generates one file with a
training loop and times, as ratios to `clang++-19 -fsyntax-only` of the same
file with the same flags:
  first   torchtidy on that file alone, fresh cache (the preamble is built)
  again   the file's body edited, then torchtidy on it alone again (the
          preamble is loaded; the result cache misses on the edit)
with the peak RSS of each. The layouts: LibTorch first, the project's own
header first (which includes LibTorch), <iostream> first, and LibTorch
first found through a hand-written -I instead of -isystem.

  bench/precommit_speed.py [--repeat 5] [--build build]
"""
import argparse
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lint_speed import TORCH_FLAGS, run_procs  # noqa: E402

MINUS_I_FLAGS = ["-std=c++17", "-I", "/usr/include/torch/csrc/api/include", "-I", "/usr/include"]

BODY = """
double train_epoch(torch::nn::Linear &net, torch::optim::SGD &opt, const torch::Tensor &x,
                   const torch::Tensor &y) {
  double total = 0;
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    auto loss = torch::mse_loss(net->forward(x), y);
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  return total;
}
"""

MODEL_H = """#pragma once
#include <torch/torch.h>

inline torch::Tensor scale(const torch::Tensor &t) { return t * 2; }
"""

LAYOUTS = [
    ("torch-first", "#include <torch/torch.h>\n", TORCH_FLAGS),
    ("project-first", '#include "model.h"\n', TORCH_FLAGS),
    ("iostream-first", "#include <iostream>\n#include <torch/torch.h>\n", TORCH_FLAGS),
    ("-I torch", "#include <torch/torch.h>\n", MINUS_I_FLAGS),
]


def generate(root):
    entries = []
    for i, (name, head, flags) in enumerate(LAYOUTS):
        src = os.path.join(root, "layout%d" % i)
        os.makedirs(src)
        with open(os.path.join(src, "model.h"), "w") as f:
            f.write(MODEL_H)
        path = os.path.join(src, "train.cpp")
        with open(path, "w") as f:
            f.write(head + BODY)
        entries.append({"directory": src, "file": path, "arguments": ["clang++-19"] + flags + ["-c", path]})
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    return entries


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="edits and runs of each layout (default 5)")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"),
                    help="torchtidy's build folder (default build)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    torchtidy = os.path.join(build, "bin", "torchtidy")
    if not os.access(torchtidy, os.X_OK):
        sys.exit("bench: no %s: build torchtidy first (make build)" % torchtidy)
    root = os.path.join(build, "bench", "precommit")
    shutil.rmtree(root, ignore_errors=True)
    entries = generate(root)

    def timed(cmd):
        wall, cpu, rss, outs = run_procs([cmd], 1)
        if outs[0][1] not in (0, 1):
            sys.exit("bench: %s failed (%d):\n%s" % (" ".join(cmd), outs[0][1], outs[0][2][-3000:]))
        return wall, rss

    rows = []
    for (name, _, flags), e in zip(LAYOUTS, entries):
        cache = os.path.join(root, "cache-%d" % len(rows))
        tt = [torchtidy, "--quiet", "-p", root, "--cache-dir", cache, e["file"]]
        load = os.getloadavg()[0]
        syntax = min(timed(["clang++-19", "-fsyntax-only", "-w"] + flags + [e["file"]]) for _ in range(2))
        first = timed(tt)
        again = []
        for k in range(args.repeat):
            with open(e["file"], "a") as f:  # a body edit: the result cache misses
                f.write("double edited%d() { return %d; }\n" % (k, k))
            again.append(timed(tt))
        rows.append((name, syntax, first, min(again), load))
        print("%-15s syntax-only %6.2f s  first %6.2f s  again %5.2f s  (load %.1f)"
              % (name, syntax[0], first[0], min(again)[0], load), file=sys.stderr, flush=True)

    print("\none file analysed alone, %d cores; again = fastest of %d edits; ratios to "
          "clang++-19 -fsyntax-only of the same file" % (os.cpu_count(), args.repeat))
    print("%-15s %9s %9s %9s %11s %11s %9s %9s %9s %6s" % (
        "layout", "syntax s", "first s", "again s", "first/syn", "again/syn",
        "syn MB", "first MB", "again MB", "load"))
    for name, syntax, first, again, load in rows:
        print("%-15s %9.2f %9.2f %9.2f %11.3f %11.3f %9.0f %9.0f %9.0f %6.1f" % (
            name, syntax[0], first[0], again[0], first[0] / syntax[0], again[0] / syntax[0],
            syntax[1], first[1], again[1], load))
    print("targets: first/syn <= 1.3, again/syn <= 0.1")


if __name__ == "__main__":
    main()
