#include "confirm/Help.h"

namespace torchtidy::confirm {

const char RunHelp[] =
    "usage: torchtidy run [--findings=<json|sarif>] [--output=<file>] [--format=json|sarif]\n"
    "                     [--trace=<file>] [--hot=<n>] [--shim=<libtorchtidy_rt.so>] [--quiet]\n"
    "                     -- <program> [args]\n"
    "\n"
    "Runs the program with the runtime shim preloaded, then joins the trace it writes\n"
    "with the static findings: each finding is confirmed (hits, time) or not executed,\n"
    "and what ran but no finding names is reported too (docs/trace.md). The program\n"
    "needs -g for stacks to map to lines. Exit status: 2 for a usage error, 3 when\n"
    "the program cannot be started or its trace or the findings cannot be read, else\n"
    "the program's own.\n"
    "\n"
    "  --findings=<file>  torchtidy's --format=json or sarif output to confirm\n"
    "  --output=<file>    write the report there (atomically) instead of stdout\n"
    "  --format=<fmt>     json (default) or sarif\n"
    "  --trace=<file>     keep the shim's trace there (default: a temporary file)\n"
    "  --hot=<n>          list the n busiest runtime-only sites (default 10)\n"
    "  --shim=<path>      the shim to preload (default: $TORCHTIDY_RT, else lib/ beside bin/)\n"
    "  --quiet            print nothing but the report and errors\n";

const char ConfirmHelp[] =
    "usage: torchtidy confirm [--output=<file>] [--format=json|sarif] [--hot=<n>] [--quiet]\n"
    "                         <trace> [<findings>]\n"
    "\n"
    "Joins a trace the runtime shim wrote (torchtidy run --trace, or the shim preloaded\n"
    "by hand) with static findings (torchtidy --format=json or sarif), as torchtidy run\n"
    "does after the program ends (docs/trace.md). Exit status: 0; 2 for a usage\n"
    "error; 3 when the trace or the findings cannot be read.\n";

} // namespace torchtidy::confirm
