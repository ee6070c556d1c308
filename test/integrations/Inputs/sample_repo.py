"""Makes the sample git repository of the pre-commit tests: a LibTorch
source with a finding (bad.cpp), a header with one (net.h, in no compile
command), a clean source (clean.cpp), and compile_commands.json in DB_DIR.

usage: sample_repo.py REPO DB_DIR "FLAGS" [TORCHTIDY_REPO HOOK_ARGS...]
With TORCHTIDY_REPO, also writes a .pre-commit-config.yaml using the hook
at that repository's HEAD with the given args."""
import json
import os
import subprocess
import sys

driver_inputs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../driver/Inputs")
repo, db_dir, flags = sys.argv[1:4]
os.makedirs(os.path.join(repo, db_dir))
sources = {  # those in the compile database
    "bad.cpp": "#include <torch/torch.h>\nauto device = torch::Device(\"cuda\");\n",
    "clean.cpp": open(os.path.join(driver_inputs, "clean.cpp")).read(),
}
headers = {"net.h": "#pragma once\n" + open(os.path.join(driver_inputs, "bad_module.cpp")).read()}
for name, text in {**sources, **headers}.items():
    with open(os.path.join(repo, name), "w") as f:
        f.write(text)
json.dump([{"directory": repo, "file": os.path.join(repo, name),
            "command": "clang++ %s -c %s" % (flags, name)} for name in sources],
          open(os.path.join(repo, db_dir, "compile_commands.json"), "w"), indent=1)

git = ["git", "-c", "init.defaultBranch=main", "-C", repo]
subprocess.run(git + ["init", "-q"], check=True)
if len(sys.argv) > 4:
    hook_repo, hook_args = sys.argv[4], sys.argv[5:]
    rev = subprocess.run(["git", "-C", hook_repo, "rev-parse", "HEAD"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.strip()
    with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as f:
        f.write("repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: torchtidy\n    args: %s\n"
                % (hook_repo, rev, json.dumps(hook_args)))
