"""Prints the facts of integrations/ci/github-workflow.yml that its test
checks: permissions, the shard matrix and each shard's torchtidy command,
the artifacts passed between the jobs, the merge, and the file and
category the upload step sends."""
import re
import sys

import yaml

# A command-line word, where ${{ ... }} expressions count as one piece.
WORD = r"(?:\$\{\{[^}]*\}\}|[^\s$])+"

wf = yaml.safe_load(open(sys.argv[1]))


def show(text):
    """${{ x }} printed as <x>, one word, that FileCheck takes literally."""
    return re.sub(r"\$\{\{\s*([^}]*?)\s*\}\}", r"<\1>", text)

print("permissions", wf["permissions"])
for name, job in wf["jobs"].items():
    matrix = job.get("strategy", {}).get("matrix", {})
    if matrix:
        print("job", name, "matrix shard", matrix["shard"], "of", wf["env"]["SHARDS"])
    for service, spec in job.get("services", {}).items():
        print("service", service, spec["image"], "env", job.get("env", {}))
    for step in job["steps"]:
        run = step.get("run", "")
        uses = step.get("uses", "")
        if "torchtidy -p" in run:
            print("lint", show(re.search(r"--remote-cache=" + WORD, run).group(0)),
                  show(re.search(r"--shard=" + WORD, run).group(0)), re.search(r"--format=" + WORD, run).group(0),
                  show(re.search(r"--output=(" + WORD + ")", run).group(1)))
        if "merge-sarif" in run:
            print("merge", re.search(r"merge-sarif (.*)", run).group(1))
        if uses.startswith("actions/upload-artifact@"):
            print("artifact up", show(step["with"]["path"]))
        if uses.startswith("actions/download-artifact@"):
            print("artifact down", step["with"]["pattern"])
        if uses.startswith("github/codeql-action/upload-sarif@"):
            print("upload", uses, step["with"]["sarif_file"], "category", step["with"]["category"])
