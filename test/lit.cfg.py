import os
import lit.formats

config.name = "torchtidy"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "fuzz", "unit", "expect_exit.py", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.environment["PATH"] = os.pathsep.join(
    [config.torchtidy_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.environment["HOME"] = os.environ.get("HOME", "/tmp")

# %torch_flags: the LibTorch flags every rule test parses with, reusing the
# suite's precompiled torch/torch.h.
torch_flags = "%s -include-pch %s" % (config.test_cxxflags, config.torch_pch)
config.substitutions.append(("%torch_flags", torch_flags))
config.substitutions.append(("%torch_cuda_flags",
                             "%s -isystem /usr/local/cuda/include -isystem %s"
                             % (torch_flags, config.cuda_stub_include)))
# %torch_source_flags: the same headers parsed from source, no PCH (for the
# tests that compare runs with and without torchtidy's own shared PCH).
config.substitutions.append(("%torch_source_flags",
                             "%s -isystem /usr/local/cuda/include -isystem %s"
                             % (config.test_cxxflags, config.cuda_stub_include)))
# %torch_include_flags: LibTorch's include directories as -I, as in a
# hand-written command (LibTorch's headers must still be system headers).
config.substitutions.append(("%torch_include_flags", "-std=c++17" + config.torch_i_flags))
# %rule_inputs: an -I for every rule suite's Inputs folder (the helpers in
# project headers), for the tests that run all suites' files at once.
rules_dir = os.path.join(config.test_source_root, "rules")
config.substitutions.append(("%rule_inputs", " ".join(
    "-I" + os.path.join(rules_dir, d, "Inputs") for d in sorted(os.listdir(rules_dir))
    if os.path.isdir(os.path.join(rules_dir, d, "Inputs")))))
config.substitutions.append(("%torchtidy", os.path.join(config.torchtidy_bin_dir, "torchtidy")))
config.substitutions.append(("%bindir", config.torchtidy_bin_dir))
config.substitutions.append(("%testbindir", config.test_exec_root))
config.substitutions.append(("%expect_exit", "python3 %s" % os.path.join(config.test_source_root, "expect_exit.py")))
# A folder outside the repository, where no compile_commands.json of a
# parent directory (the project's own build/) can be found.
import tempfile
config.substitutions.append(("%outside_tmp", tempfile.mkdtemp(prefix="torchtidy-lit-")))

# The integrations (test/integrations): clang-tidy with the plugin, this
# repository for pre-commit, and Microsoft's SARIF validator, which
# scripts/setup.sh installs into tools/. The validator is named by its path
# even when missing, so that its test fails rather than passes unrun.
config.substitutions.append(("%clang_tidy_plugin",
                             os.path.join(config.torchtidy_lib_dir, "libtorchtidy-clang-tidy.so")))
# (after %clang_tidy_plugin, which it prefixes)
config.substitutions.append(("%clang_tidy", os.path.join(config.llvm_tools_dir, "clang-tidy")))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%repo_root", config.source_root))
# Validation does not depend on the culture: invariant mode spares the
# .NET binary its need for ICU.
config.substitutions.append(("%sarif_multitool", "env DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 " + os.path.join(
    config.source_root, "tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool")))
# Results and shared PCHs are cached in a folder of this run, not the user's
# ~/.cache; tests of the cache itself give --cache-dir=%t.cache.
config.environment["TORCHTIDY_CACHE_DIR"] = tempfile.mkdtemp(prefix="torchtidy-lit-cache-")

# Root reads files whatever their mode: the unreadable-file case needs a user.
if os.geteuid() != 0:
    config.available_features.add("non-root")

# A TORCHTIDY_SANITIZE build: its shim and plugin only load into programs
# built with the same sanitizer (docs/reliability.md).
if config.sanitizer:
    config.available_features.add("sanitizer")
