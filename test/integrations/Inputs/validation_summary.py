"""Summarises the SARIF multitool's validation: how many of the logs in
LOGS_DIR it scanned (from its console output), the count of errors and
warnings, then one line per result (level rule: message (log)).

usage: validation_summary.py VALIDATION_LOG CONSOLE_OUTPUT LOGS_DIR"""
import glob
import json
import os
import re
import sys

validation, console, logs_dir = sys.argv[1:4]
scanned = re.search(r"Done\. (\d+) files? scanned", open(console).read())
print("%s of %d logs scanned" % (scanned.group(1) if scanned else "none",
                                 len(glob.glob(os.path.join(logs_dir, "*.sarif")))))
log = json.load(open(validation))
counts = {"error": 0, "warning": 0, "note": 0}
lines = []
for run in log["runs"]:
    rules = {r["id"]: r for r in run["tool"]["driver"].get("rules", [])}
    for r in run.get("results", []):
        level = r.get("level", "warning")
        counts[level] = counts.get(level, 0) + 1
        msg = r["message"]
        text = msg.get("text")
        if text is None:  # a message string of the rule, with arguments
            text = rules.get(r["ruleId"], {}).get("messageStrings", {}).get(msg.get("id"), {}).get("text", "")
            for i, arg in enumerate(msg.get("arguments", [])):
                text = text.replace("{%d}" % i, arg)
        uri = r.get("locations", [{}])[0].get("physicalLocation", {}).get("artifactLocation", {}).get("uri", "")
        lines.append("%s %s: %s (%s)" % (level, r["ruleId"], text, uri.rsplit("/", 1)[-1]))
print("%d errors, %d warnings" % (counts["error"], counts["warning"]))
for line in sorted(lines):
    print(line)
