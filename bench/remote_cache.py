#!/usr/bin/env python3
"""Two CI runners sharing torchtidy's remote result cache (a benchmark, not a test).

Starts a redis-server on a free loopback port, generates the project of
bench/lint_speed.py twice, in two checkout paths, and times with the same -j:
  first   torchtidy in checkout a, empty local cache dir A, empty store: it
          parses everything (and builds its PCH) and fills the store
  second  torchtidy in checkout b, empty local cache dir B, the store filled
Both reports must be the same but for the checkout path, and the second run
must take every file from the store (its --profile counts). Prints each
round's wall times and the ratio second / first (target <= 0.05); the store
and both local caches are emptied before each round.

  bench/remote_cache.py [--n 64] [-j JOBS] [--rounds 3] [--build build]
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lint_speed import generate, run_procs  # noqa: E402


def start_redis(workdir):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no", "--dir", workdir], stdout=subprocess.DEVNULL)
    for _ in range(100):
        if redis(port, "ping") == "PONG":
            return server, port
        time.sleep(0.05)
    server.kill()
    sys.exit("bench: redis-server did not start")


def redis(port, *args):
    return subprocess.run(["redis-cli", "-p", str(port)] + list(args), capture_output=True,
                          text=True).stdout.strip()


def timed(cmd):
    """Wall and CPU seconds of one torchtidy run, its stdout and --profile."""
    wall, cpu, _, outs = run_procs([cmd], 1)
    _, rc, out = outs[0]
    if rc not in (0, 1):  # 1: findings
        sys.exit("bench: %s failed (%d):\n%s" % (" ".join(cmd), rc, out[-3000:]))
    return wall, cpu, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=64, help="translation units (default 64)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count(), help="parallel jobs (default: cores)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of both runners (default 3)")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"),
                    help="torchtidy's build folder (default build)")
    ap.add_argument("--workdir", help="where to generate the project (default BUILD/bench/remote-N)")
    args = ap.parse_args()

    torchtidy = os.path.join(os.path.abspath(args.build), "bin", "torchtidy")
    if not os.access(torchtidy, os.X_OK):
        sys.exit("bench: no %s: build torchtidy first (make build)" % torchtidy)
    root = os.path.abspath(args.workdir or os.path.join(args.build, "bench", "remote-%d" % args.n))
    shutil.rmtree(root, ignore_errors=True)
    checkouts = {name: os.path.join(root, name) for name in ("a", "b")}
    dbs = {name: generate(path, args.n)[1] for name, path in checkouts.items()}
    server, port = start_redis(root)
    try:
        ratios = []
        for r in range(args.rounds):
            redis(port, "flushall")
            runs = {}
            for name in ("a", "b"):
                cache = os.path.join(root, "cache-" + name)
                shutil.rmtree(cache, ignore_errors=True)
                runs[name] = timed([torchtidy, "--quiet", "--profile", "-p", dbs[name], "-j", str(args.jobs),
                                    "--cache-dir", cache, "--remote-cache=redis://127.0.0.1:%d" % port])
            hits = re.search(r"remote-hits=(\d+)", runs["b"][2])
            if not hits or int(hits.group(1)) != args.n:
                sys.exit("bench: the second runner did not take every file from the store:\n" + runs["b"][2])

            def report(name):  # its findings, paths relative to the checkout; --profile left out
                return [l.replace(checkouts[name], "<checkout>") for l in runs[name][2].splitlines()
                        if ".cpp:" in l or ".h:" in l]
            if report("a") != report("b"):
                sys.exit("bench: the two runners' findings differ")
            ratios.append(runs["b"][0] / runs["a"][0])
            print("round %d  first %7.2f s wall %7.2f s cpu   second %6.3f s wall %6.3f s cpu   ratio %.4f  "
                  "(load %.1f)" % (r + 1, runs["a"][0], runs["a"][1], runs["b"][0], runs["b"][1], ratios[-1],
                                   os.getloadavg()[0]), flush=True)
        print("\n%d TUs, -j %d, %d cores: second runner / first runner (wall), %d round(s): "
              "%.4f-%.4f (target <= 0.05)" % (args.n, args.jobs, os.cpu_count(), len(ratios),
                                              min(ratios), max(ratios)))
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
