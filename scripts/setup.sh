#!/usr/bin/env bash
# Installs what torchtidy needs on a fresh Debian 12 machine. Idempotent: it
# only calls apt-get or npm when something is missing, and prints nothing
# otherwise.
set -euo pipefail

packages=(
  cmake ninja-build make python3
  clang-19 libclang-rt-19-dev libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools
  clang-tidy-19 clang-tools-19
  libtorch-dev nlohmann-json3-dev googletest libgtest-dev
  doctest-dev catch2  # real unit-test macros in the rule tests
  libhiredis-dev redis-server  # the remote result cache and its test
  pre-commit
  neovim
)
# npm, for the SARIF validator below; a Node.js that already brings its own
# npm (NodeSource's) must not be replaced by Debian's.
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "torchtidy setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Microsoft's SARIF validator, used by the tests (test/integrations/sarif_validate.test),
# into tools/ (git-ignored). Its native binary is run directly.
multitool_version=5.7.0
multitool=tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
cd "$(dirname "$0")/.."
if ! grep -qs "\"version\": \"$multitool_version\"" tools/node_modules/@microsoft/sarif-multitool-linux/package.json; then
  echo "torchtidy setup: installing @microsoft/sarif-multitool@$multitool_version into tools/"
  npm install --prefix tools --no-audit --no-fund --save-exact --loglevel=error \
    "@microsoft/sarif-multitool@$multitool_version" >/dev/null
fi
# npm may skip the package's postinstall, which only makes the binary executable.
[ -x "$multitool" ] || chmod u+x "$multitool"
