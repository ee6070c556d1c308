#!/usr/bin/env bash
# Scaffolds a new check, so that adding one is this command and the filling-in:
#   rules/checks/<name>.{h,cpp}    the class and its RuleInfo (level warning,
#                                  precision medium, tag performance, no signal)
#   rules/checks/Registry.cpp      its include and its line
#   rules/CMakeLists.txt           its source
#   docs/rules/<id>.md             the page, with the header --list-checks must match
#   README.md                      its row in the check table
#   test/rules/<id>/               positives.cpp and negatives.cpp lit tests
# where <name> is the id without "torch-", '-' as '_'. The tests fail until
# the check and its findings are filled in.
#
# usage: scripts/new-check.sh [--root <tree>] torch-<words-with-dashes>
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ "${1:-}" == "--root" ]]; then
  root="${2:?--root needs a directory}"
  shift 2
fi
id="${1:-}"
if [[ $# -ne 1 || ! "$id" =~ ^torch-[a-z0-9]+(-[a-z0-9]+)*$ ]]; then
  echo "usage: $0 [--root <tree>] torch-<words-with-dashes>" >&2
  exit 2
fi
name="${id#torch-}"
name="${name//-/_}"
class="$(sed -E 's/(^|_)([a-z0-9])/\U\2/g' <<<"$name")Check"

for f in "rules/checks/$name.h" "rules/checks/$name.cpp" "docs/rules/$id.md" "test/rules/$id"; do
  if [[ -e "$root/$f" ]]; then
    echo "$0: error: $root/$f exists: $id is a check already" >&2
    exit 1
  fi
done

# Inserts LINE into FILE among the lines matching PATTERN, keeping them in
# order (the first line past it in order, or after the last one).
insert_sorted() {
  python3 - "$@" <<'EOF'
import re, sys
path, pattern, line = sys.argv[1:]
with open(path, encoding='utf-8') as f:
    lines = f.read().split('\n')
block = [i for i, l in enumerate(lines) if re.search(pattern, l)]
if not block:
    sys.exit('%s: no line matches %s' % (path, pattern))
at = next((i for i in block if lines[i] > line), block[-1] + 1)
lines.insert(at, line)
with open(path, 'w', encoding='utf-8') as f:
    f.write('\n'.join(lines))
EOF
}

cat >"$root/rules/checks/$name.h" <<EOF
#pragma once

#include "framework/Check.h"

namespace torchtidy {

// $id: TODO what it finds (see docs/rules/$id.md).
class $class : public Check {
public:
  static const RuleInfo Info;
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy
EOF

cat >"$root/rules/checks/$name.cpp" <<EOF
#include "checks/$name.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo $class::Info = {
    "$id",
    "TODO: one line on what it flags",
    Level::Warning,
    Precision::Medium,
    {"performance"},
    {}};

void $class::registerMatchers(MatchFinder *Finder) {
  // TODO: match what the check is about.
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
}

void $class::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  (void)Call; // TODO: diag(*Result.SourceManager, Call->getBeginLoc(), "what is wrong; what to do");
}

} // namespace torchtidy
EOF

insert_sorted "$root/rules/checks/Registry.cpp" '^#include "checks/[a-z0-9_]+\.h"$' "#include \"checks/$name.h\""
insert_sorted "$root/rules/checks/Registry.cpp" '^        entry<[A-Za-z0-9]+>\(\),$' "        entry<$class>(),"
insert_sorted "$root/rules/CMakeLists.txt" '^  checks/[a-z0-9_]+\.cpp$' "  checks/$name.cpp"
insert_sorted "$root/README.md" '^\| \[torch-[a-z0-9-]+\]\(docs/rules/' \
  "| [$id](docs/rules/$id.md) | warning | medium | performance | TODO: what it flags |"

cat >"$root/docs/rules/$id.md" <<EOF
# $id

**Level** warning · **precision** medium · **tags** performance

## What it flags

TODO

## What it does not flag

TODO

## Why

TODO

## Bad

\`\`\`cpp
TODO
\`\`\`

## Good

\`\`\`cpp
TODO
\`\`\`

## Fix

TODO: the fix-it, or why there is none.

## Runtime signal

TODO: what a run shows (RuleInfo's Signal), or none.
EOF

mkdir -p "$root/test/rules/$id"
cat >"$root/test/rules/$id/positives.cpp" <<EOF
// What $id must flag.
// RUN: not %torchtidy --quiet --checks='-*,$id' %s -- %torch_flags \\
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

void flagged(torch::Tensor t) {
  // TODO: each case, with its finding's line, column and message on the next line.
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: TODO [$id]
}
EOF
cat >"$root/test/rules/$id/negatives.cpp" <<EOF
// What $id must not flag.
// RUN: %torchtidy --quiet --checks='-*,$id' %s -- %torch_flags \\
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

void fine(torch::Tensor t) {
  // TODO: the look-alikes the check must leave alone.
}
EOF

echo "created $id: rules/checks/$name.{h,cpp}, docs/rules/$id.md, test/rules/$id/; added to" \
  "rules/checks/Registry.cpp, rules/CMakeLists.txt and README.md"
