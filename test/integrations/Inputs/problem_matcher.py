"""Applies the problem matchers of integrations/vscode/tasks.json to the
text on stdin, as VS Code does line by line (every matcher sees every
line, so a line two matchers take shows twice), and prints what each
match gives: severity file:line:col code message."""
import json
import re
import sys

task = json.load(open(sys.argv[1]))["tasks"][0]
matchers = []
for m in task["problemMatcher"]:
    p = m["pattern"]
    matchers.append((re.compile(p["regexp"]), p, m.get("severity")))
for line in sys.stdin.read().splitlines():
    for regexp, p, default_severity in matchers:
        g = regexp.match(line)
        if not g:
            continue
        field = lambda name: g.group(p[name]) if name in p else None
        print(field("severity") or default_severity, "%s:%s:%s" % (field("file"), field("line"), field("column")),
              field("code") or "-", field("message"))
