"""Checks the SARIF logs of N shards against one whole run and their merge:
shards_check.py WHOLE MERGED SHARD... Prints the facts the test checks."""
import json
import os
import sys

def files(path):
    run = json.load(open(path))["runs"][0]
    return sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"])

whole, merged, shards = sys.argv[1], sys.argv[2], sys.argv[3:]
parts = [files(s) for s in shards]
union = sorted(f for p in parts for f in p)
print("disjoint", len(union) == len(set(union)), "union is whole", union == files(whole),
      "relative to the working directory", all(not f.startswith("file:") and os.path.exists(f) for f in union))
print("bytes per shard", " ".join(str(sum(os.path.getsize(f) for f in p)) for p in parts))
log = json.load(open(merged))
run = log["runs"][0]
print("merged runs", len(log["runs"]), "results", len(run["results"]), "of", len(files(whole)),
      "invocations", len(run["invocations"]), "automation", run["automationDetails"]["id"])
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert len(rules) == len(set(rules))
assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in run["results"])
print("rules", ",".join(rules))
