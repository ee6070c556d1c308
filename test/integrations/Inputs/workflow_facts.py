"""Prints the facts of integrations/ci/github-workflow.yml that its test
checks: permissions, the torchtidy command's SARIF output, and the file the
upload step sends."""
import re
import sys

import yaml

wf = yaml.safe_load(open(sys.argv[1]))
print("permissions", wf["permissions"])
for step in next(iter(wf["jobs"].values()))["steps"]:
    run = step.get("run", "")
    if "torchtidy -p" in run:
        print("lint", re.search(r"--format=\S+", run).group(0), re.search(r"--output=(\S+)", run).group(1))
    if step.get("uses", "").startswith("github/codeql-action/upload-sarif@"):
        print("upload", step["uses"], step["with"]["sarif_file"])
