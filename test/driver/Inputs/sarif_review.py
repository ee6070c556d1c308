"""Prints what code review reads of a SARIF log beyond the findings: each
rule's help (markdown sections, helpUri), the run's automationDetails and
invocations, one line each."""
import json
import sys

run = json.load(open(sys.argv[1]))["runs"][0]
print("runs", len(json.load(open(sys.argv[1]))["runs"]), "automation", run["automationDetails"]["id"])
for r in run["tool"]["driver"]["rules"]:
    md = r["help"]["markdown"]
    sections = [l[3:] for l in md.splitlines() if l.startswith("## ")]
    print("rule", r["id"], "help", "|".join(sections), "uri", r["helpUri"])
for inv in run.get("invocations", []):
    print("invocation successful", inv["executionSuccessful"])
    for n in inv.get("toolExecutionNotifications", []):
        uri = n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        print("notification", n["level"], n["descriptor"]["id"], uri, n["message"]["text"][:60])
ids = [r["ruleId"] for r in run["results"]]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in run["results"])
print("results", len(ids), ",".join(sorted(set(ids))))
