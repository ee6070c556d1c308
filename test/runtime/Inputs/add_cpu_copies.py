"""Turns a trace into one of an older shim, which also recorded copies that
stay on the CPU: beside each scalar read, CPU-to-CPU aten::to and
aten::copy_ events with the same stack, seven per read.
add_cpu_copies.py TRACE OUT"""
import json, sys

t = json.load(open(sys.argv[1]))
copies = []
for e in t["events"]:
    if e["kind"] != "scalar-read":
        continue
    for op, n in (("aten::to", 4), ("aten::copy_", 3)):
        copies.append(dict(e, kind="copy", op=op, src="cpu", dst="cpu", count=n * e["count"], blocking=0))
assert copies, "no scalar read to copy beside"
t["events"] += copies
t["summary"]["sites"] = len(t["events"])
t["summary"]["events"] = sum(e["count"] for e in t["events"])
json.dump(t, open(sys.argv[2], "w"))
