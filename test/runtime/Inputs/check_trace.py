"""Checks a torchtidy-trace/1 file's shape (docs/trace.md) and prints a
summary, one line per event kind and op, for FileCheck:
check_trace.py TRACE"""
import json, os, stat, sys

path = sys.argv[1]
mode = stat.S_IMODE(os.stat(path).st_mode)
t = json.load(open(path))
assert t["format"] == "torchtidy-trace/1", t["format"]
for key in ("producer", "pid", "exe", "argv", "end", "wall_ns", "libtorch", "cuda", "evidence", "modules",
            "events", "summary"):
    assert key in t, key
ids = {m["id"] for m in t["modules"]}
for m in t["modules"]:
    assert os.path.isabs(m["path"]), m
total = 0
for e in t["events"]:
    for key in ("kind", "op", "count", "blocking", "total_ns", "max_ns", "blocked_ns", "stack", "pinned",
                "non_blocking"):
        assert key in e, (key, e)
    for f in e["stack"]:
        assert len(f) == 2 and (f[0] is None or f[0] in ids), f
    total += e["count"]
assert total == t["summary"]["events"], (total, t["summary"])
assert t["summary"]["sites"] == len(t["events"])
leftovers = [f for f in os.listdir(os.path.dirname(os.path.abspath(path)) or ".") if ".tmp." in f]
assert not leftovers, leftovers
print("mode %o" % mode)
print("end %s %s" % (t["end"]["how"], t["end"].get("signal", "")))
print("evidence %s cuda-observed %s" % (t["evidence"], t["cuda"]["observed"]))
print("cuda reason: %s" % t["cuda"]["reason"])
kinds = {}
for e in t["events"]:
    k = (e["kind"], e.get("stale", ""))
    kinds[k] = kinds.get(k, 0) + e["count"]
for (k, s), n in sorted(kinds.items()):
    print("kind %s%s %d" % (k, " stale=%s" % s if s != "" else "", n))
