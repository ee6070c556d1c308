"""Prints the facts of a SARIF log that the tests check, one line each."""
import json
import re
import sys

log = json.load(open(sys.argv[1]))
run = log["runs"][0]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
print("version", log["version"], "tool", run["tool"]["driver"]["name"], "rules", ",".join(rules))
assert run["originalUriBaseIds"]["SRCROOT"]["uri"].endswith("/")
seen = set()
for r in run["results"]:
    loc = r["locations"][0]["physicalLocation"]
    uri = loc["artifactLocation"]["uri"]
    if uri in seen:
        continue
    seen.add(uri)
    assert loc["artifactLocation"]["uriBaseId"] == "SRCROOT"
    assert rules[r["ruleIndex"]] == r["ruleId"]
    fp = r["partialFingerprints"]["primaryLocationLineHash"]
    print(r["ruleId"], r["ruleIndex"], uri, "%d:%d" % (loc["region"]["startLine"], loc["region"]["startColumn"]),
          "related", len(r.get("relatedLocations", [])),
          "fingerprint", "ok" if re.fullmatch(r"[0-9a-f]+:\d+", fp) else fp)
