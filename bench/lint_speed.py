#!/usr/bin/env python3
"""How fast torchtidy lints a LibTorch project (a benchmark, not a test).

Generates a project of N translation units (models, training loops, data
code, each including torch/torch.h) with a compile_commands.json, then times,
interleaved in one run and all with the same -j:
  syntax-only  clang++-19 -fsyntax-only over every TU
  clang-tidy   clang-tidy-19 --checks='-*,performance-unnecessary-copy-initialization'
  cold         torchtidy with an empty cache (result cache and precompiled header)
  warm         torchtidy again, nothing changed
  touched      torchtidy after editing one TU
  one-file     torchtidy on that one file alone, no result cache (what "touched" should cost)
and with --extra also torchtidy --no-cache --no-pch (no precompiled header)
and --no-cache --no-pch --no-skip-system-bodies (system function bodies parsed).
The sub-second cases (warm, touched, one-file) run --repeat times (default 5)
per round, interleaved. Prints, for each case's fastest run, wall time, CPU
time (user+sys of the processes) and peak RSS (of the largest process), the
ratios the issue sets targets for, and torchtidy's --profile of the cold run.

  bench/lint_speed.py [--n 8] [-j JOBS] [--rounds 1] [--repeat 5] [--extra] [--build build]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TORCH_FLAGS = ["-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include"]

MODEL = """#include <torch/torch.h>
#include "common.h"

struct Net{i} : torch::nn::Module {{
  Net{i}() {{
    fc1 = register_module("fc1", torch::nn::Linear(kIn, 64 + {i}));
    fc2 = register_module("fc2", torch::nn::Linear(64 + {i}, kOut));
    bn = register_module("bn", torch::nn::BatchNorm1d(64 + {i}));
  }}
  torch::Tensor forward(torch::Tensor x) {{
    x = torch::relu(bn(fc1(x)));
    return torch::log_softmax(fc2(x), /*dim=*/1);
  }}
  torch::nn::Linear fc1{{nullptr}}, fc2{{nullptr}};
  torch::nn::BatchNorm1d bn{{nullptr}};
}};

torch::Tensor run_model{i}(const torch::Tensor &input) {{
  Net{i} net;
  net.to(torch::Device(torch::kCUDA));
  return net.forward(input.cuda());
}}
"""

TRAIN = """#include <torch/torch.h>
#include "common.h"

#include <iostream>

double train{i}(torch::nn::Sequential &model, torch::optim::SGD &optimizer,
                const std::vector<torch::Tensor> &batches) {{
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  model->to(device);
  double total = 0;
  for (size_t step = 0; step < batches.size(); ++step) {{
    torch::Tensor x = batches[step].to(device);
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(x), torch::zeros_like(x));
    loss.backward();
    optimizer.step();
    total += loss.item<double>();
    if (step % 100 == 0)
      std::cout << "step " << step << " loss " << total / (step + 1) << "\\n";
  }}
  return total;
}}
"""

DATA = """#include <torch/torch.h>
#include "common.h"

#include <vector>

class Dataset{i} : public torch::data::datasets::Dataset<Dataset{i}> {{
public:
  explicit Dataset{i}(int64_t size) : size_(size) {{}}
  torch::data::Example<> get(size_t index) override {{
    auto x = torch::full({{kIn}}, static_cast<double>(index + {i}));
    auto y = torch::tensor(static_cast<int64_t>(index % kOut));
    return {{x, y}};
  }}
  torch::optional<size_t> size() const override {{ return size_; }}

private:
  int64_t size_;
}};

size_t count_batches{i}() {{
  auto loader = torch::data::make_data_loader(
      Dataset{i}(256).map(torch::data::transforms::Stack<>()), /*batch_size=*/32);
  size_t n = 0;
  for (auto &batch : *loader)
    n += batch.data.size(0);
  return n;
}}
"""

COMMON = """#pragma once
#include <cstdint>
constexpr int64_t kIn = 32;
constexpr int64_t kOut = 10;
"""


def generate(root, n):
    src = os.path.join(root, "src")
    os.makedirs(src, exist_ok=True)
    with open(os.path.join(src, "common.h"), "w") as f:
        f.write(COMMON)
    templates = [("model", MODEL), ("train", TRAIN), ("data", DATA)]
    files = []
    for i in range(n):
        name, text = templates[i % len(templates)]
        path = os.path.join(src, "%s%d.cpp" % (name, i))
        with open(path, "w") as f:
            f.write(text.format(i=i))
        files.append(path)
    build = os.path.join(root, "build")
    os.makedirs(build, exist_ok=True)
    import json
    db = [{"directory": build, "file": p,
           "arguments": ["clang++-19"] + TORCH_FLAGS + ["-O2", "-o", p + ".o", "-c", p]}
          for p in files]
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    return files, build


def run_procs(cmds, jobs):
    """Runs the commands, at most `jobs` at once; returns (wall, cpu, peak rss MB, outputs)."""
    start = time.monotonic()
    cpu = 0.0
    peak = 0
    outputs = []
    # os.wait4 gives each child's own rusage (getrusage(CHILDREN) would sum them).
    running = {}
    pending = list(cmds)
    while pending or running:
        while pending and len(running) < jobs:
            cmd = pending.pop(0)
            # Output goes to a file: a full pipe would block the child.
            log = tempfile.TemporaryFile()
            p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
            p.log = log
            running[p.pid] = (p, cmd)
        pid, status, ru = os.wait4(-1, 0)
        if pid not in running:
            continue
        p, cmd = running.pop(pid)
        p.log.seek(0)
        out = p.log.read().decode(errors="replace")
        p.log.close()
        p.returncode = os.waitstatus_to_exitcode(status)
        cpu += ru.ru_utime + ru.ru_stime
        peak = max(peak, ru.ru_maxrss)
        outputs.append((cmd, p.returncode, out))
    return time.monotonic() - start, cpu, peak / 1024.0, outputs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=8, help="translation units (default 8)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count(), help="parallel jobs (default: cores)")
    ap.add_argument("--rounds", type=int, default=1, help="interleaved rounds of all cases (default 1)")
    ap.add_argument("--repeat", type=int, default=5,
                    help="runs of the sub-second cases (warm, touched, one-file) per round (default 5)")
    ap.add_argument("--extra", action="store_true", help="also time torchtidy without PCH, and without body skipping")
    ap.add_argument("--only-torchtidy", action="store_true", help="skip the clang++ and clang-tidy cases")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"),
                    help="torchtidy's build folder (default build)")
    ap.add_argument("--workdir", help="where to generate the project (default BUILD/bench/lint-N)")
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    torchtidy = os.path.join(build, "bin", "torchtidy")
    if not os.access(torchtidy, os.X_OK):
        sys.exit("bench: no %s: build torchtidy first (make build)" % torchtidy)
    root = os.path.abspath(args.workdir or os.path.join(build, "bench", "lint-%d" % args.n))
    shutil.rmtree(root, ignore_errors=True)
    files, db_dir = generate(root, args.n)
    cache = os.path.join(root, "cache")
    touched = files[0]
    j = str(args.jobs)
    tt = [torchtidy, "--quiet", "-p", db_dir, "-j", j, "--cache-dir", cache]

    def touch():
        with open(touched, "a") as f:
            f.write("// edited %f\n" % time.time())

    def reset_cache():
        shutil.rmtree(cache, ignore_errors=True)

    cases = []  # (name, prepare, commands, parallel jobs for the commands)
    if not args.only_torchtidy:
        cases.append(("syntax-only", None,
                      [["clang++-19", "-fsyntax-only", "-w"] + TORCH_FLAGS + [f] for f in files], args.jobs))
        cases.append(("clang-tidy", None,
                      [["clang-tidy-19", "--quiet", "-p", db_dir,
                        "--checks=-*,performance-unnecessary-copy-initialization", f] for f in files], args.jobs))
    cases += [
        ("cold", reset_cache, [tt + ["--profile"]], 1),
        ("warm", None, [tt], 1),
        ("touched", touch, [tt], 1),
        ("one-file", None, [tt + ["--no-cache", touched]], 1),
    ]
    if args.extra:
        cases += [
            ("no-pch", None, [tt + ["--no-cache", "--no-pch"]], 1),
            ("no-pch-no-skip", None, [tt + ["--no-cache", "--no-pch", "--no-skip-system-bodies"]], 1),
        ]

    results = {}
    profile = ""

    def run_case(r, name, prepare, cmds, jobs):
        nonlocal profile
        if prepare:
            prepare()
        load = os.getloadavg()[0]
        wall, cpu, rss, outs = run_procs(cmds, jobs)
        for cmd, rc, out in outs:
            # torchtidy exits 1 when it finds something; clang-tidy 0.
            if rc not in (0, 1):
                sys.exit("bench: %s failed (%d):\n%s" % (" ".join(cmd), rc, out[-3000:]))
        if name == "cold":
            profile = outs[0][2]
        results.setdefault(name, []).append((wall, cpu, rss, load))
        print("round %d %-15s wall %7.2f s  cpu %7.2f s  peak rss %6.0f MB  (load %.1f)"
              % (r + 1, name, wall, cpu, rss, load), file=sys.stderr, flush=True)

    # The cases of a tenth of a second move by a third from one run to the
    # next: each round runs them --repeat times, interleaved, after the rest.
    quick = [c for c in cases if c[0] in ("warm", "touched", "one-file")]
    for r in range(args.rounds):
        for case in cases:
            if case not in quick:
                run_case(r, *case)
        for _ in range(args.repeat):
            for case in quick:
                run_case(r, *case)

    def best(name):
        # The least wall time of the runs: the one least disturbed by other load.
        return min(results[name]) if name in results else None

    print("\n%d TUs, -j %d, %d round(s), sub-second cases %d times a round, %d cores, "
          "load at start of each case shown" % (args.n, args.jobs, args.rounds, args.repeat, os.cpu_count()))
    print("%-15s %9s %9s %12s %6s" % ("case", "wall s", "cpu s", "peak RSS MB", "load"))
    for name in results:
        w, c, m, l = best(name)
        print("%-15s %9.2f %9.2f %12.0f %6.1f" % (name, w, c, m, l))
    print()

    def ratio(label, a, b, target=None, index=0):
        if a is None or b is None:
            return
        v = a[index] / b[index] if b[index] else float("inf")
        print("%-42s %7.3f%s" % (label, v, "   (target <= %g)" % target if target is not None else ""))

    ratio("cold / clang-tidy (wall)", best("cold"), best("clang-tidy"), 0.5)
    ratio("cold / clang-tidy (cpu)", best("cold"), best("clang-tidy"), 0.5, 1)
    ratio("cold / syntax-only (wall)", best("cold"), best("syntax-only"))
    ratio("cold / syntax-only (cpu)", best("cold"), best("syntax-only"), None, 1)
    ratio("warm / cold (wall)", best("warm"), best("cold"), 0.02)
    ratio("touched / one-file (wall)", best("touched"), best("one-file"), 1.2)
    if args.extra:
        ratio("cold / no-pch (cpu)", best("cold"), best("no-pch"), None, 1)
        ratio("no-pch / no-pch-no-skip (cpu)", best("no-pch"), best("no-pch-no-skip"), None, 1)
    if "syntax-only" in results:
        per_worker = best("one-file")[2]
        print("%-42s %7.0f MB vs %.0f MB per clang++ -fsyntax-only"
              % ("peak RSS, torchtidy on one file", per_worker, best("syntax-only")[2]))
    m = re.search(r"matching, all checks.*?([\d.]+)% of parse", profile)
    if m:
        print("%-42s %7.3f   (target <= 0.05)" % ("matching all checks / parse", float(m.group(1)) / 100))
    print("\ncold run's --profile:\n" + profile.strip())


if __name__ == "__main__":
    main()
