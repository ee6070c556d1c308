"""Writes a project of many files for the remote cache's failure tests:
the program's train.cpp, metrics.cpp and model.cpp and N loop files, each
with a finding (in a function its file's initialiser calls, so that the
program runs it), in DIR/src, and DIR/build/compile_commands.json.

  remote_project.py DIR FLAGS PROGRAM_DIR N"""
import json, os, shutil, sys

root, flags, program, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
LOOP = """#include <torch/torch.h>

double loop{i}(const torch::Tensor &x) {{
  double sum = 0;
  for (int i = 0; i < {i} + 2; ++i)
    sum += x.to(torch::kCUDA).sum().item<double>();
  return sum;
}}

static const double warm{i} = loop{i}(torch::ones({{2}}));
"""
src, build = os.path.join(root, "src"), os.path.join(root, "build")
shutil.copytree(program, src)
os.makedirs(build)
files = ["train.cpp", "metrics.cpp", "model.cpp"]
for i in range(n):
    files.append("loop%d.cpp" % i)
    with open(os.path.join(src, files[-1]), "w") as f:
        f.write(LOOP.format(i=i))
with open(os.path.join(build, "compile_commands.json"), "w") as f:
    json.dump([{"directory": build, "file": os.path.join(src, name),
                "command": "clang++ %s -c %s" % (flags, os.path.join(src, name))} for name in files], f)
