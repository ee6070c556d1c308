"""Checks that what the shim keeps does not grow with the iterations of the
observed program: stress_bounds.py DIR, where DIR holds short.json and
long.json (traces of a short and a 100 times longer run) and plain-short.rss,
plain-long.rss, shim-short.rss, shim-long.rss (peak memory in KiB, from
peak_rss.py). Prints the numbers, fails past the bounds."""
import os, sys

d = sys.argv[1]
size = {k: os.path.getsize(os.path.join(d, k + ".json")) for k in ("short", "long")}
rss = {k: int(open(os.path.join(d, k + ".rss")).read())
       for k in ("plain-short", "plain-long", "shim-short", "shim-long")}
# Events are aggregated per call site: only the counts' digits grow.
trace_growth = size["long"] - size["short"]
# The shim's own memory: what the shim adds to the program, at each length.
added_short = rss["shim-short"] - rss["plain-short"]
added_long = rss["shim-long"] - rss["plain-long"]
print("trace bytes %d -> %d" % (size["short"], size["long"]))
print("shim adds %d KiB (short) and %d KiB (long)" % (added_short, added_long))
assert trace_growth <= 512, "trace grew by %d bytes" % trace_growth
assert added_long - added_short <= 8 * 1024, "shim memory grew by %d KiB" % (added_long - added_short)
print("bounded")
