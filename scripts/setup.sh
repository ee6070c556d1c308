#!/usr/bin/env bash
# Installs what torchtidy needs on a fresh Debian 12 machine. Idempotent: it
# only calls apt-get when a package is missing, and prints nothing otherwise.
set -euo pipefail

packages=(
  cmake ninja-build make python3
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools
  clang-tidy-19 clang-tools-19
  libtorch-dev nlohmann-json3-dev googletest libgtest-dev
)

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
