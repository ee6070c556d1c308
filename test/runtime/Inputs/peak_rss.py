"""Runs a command, passing its output through, and writes its peak resident
memory in KiB to a file: peak_rss.py OUT_FILE COMMAND..."""
import os, subprocess, sys

proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % usage.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
