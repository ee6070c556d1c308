#!/usr/bin/env python3
"""Fails when the README's check table or a docs/rules/<id>.md header says
another level, precision or tags than `torchtidy --list-checks`, whose
output is read on stdin: every mismatch is printed with its file and line.

usage: torchtidy --list-checks | check_rule_docs.py <repository root>"""
import os
import re
import sys

LISTED = re.compile(r'^    (\S+)  \[(\w+), precision (\w+), (.*?)\]  ')
README_ROW = re.compile(r'^\| \[(torch-[\w-]+)\]\(docs/rules/\1\.md\) \| (\w+) \| (\w+) \| ([^|]*?) \|')
HEADER = re.compile(r'^\*\*Level\*\* (\w+) · \*\*precision\*\* (\w+) · \*\*tags\*\* (.*)$', re.M)


def says(facts):
    return '%s, precision %s, %s' % facts


def problems(root, listed):
    readme = {}
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = README_ROW.match(line)
            if m:
                readme[m[1]] = (number, m.groups()[1:])
    for check, facts in sorted(listed.items()):
        if check not in readme:
            yield 'README.md: no row for %s' % check
        elif readme[check][1] != facts:
            yield 'README.md:%d: %s: %s; --list-checks: %s' % (
                readme[check][0], check, says(readme[check][1]), says(facts))
        page = os.path.join('docs', 'rules', check + '.md')
        try:
            with open(os.path.join(root, page), encoding='utf-8') as f:
                text = f.read()
        except OSError:
            yield '%s: missing' % page
            continue
        m = HEADER.search(text)
        if not m:
            yield '%s: no "**Level** ... · **precision** ... · **tags** ..." line' % page
        elif m.groups() != facts:
            yield '%s:%d: %s; --list-checks: %s' % (
                page, text.count('\n', 0, m.start()) + 1, says(m.groups()), says(facts))
    for check in sorted(set(readme) - set(listed)):
        yield 'README.md:%d: %s is not a check' % (readme[check][0], check)


def main():
    listed = {}
    for line in sys.stdin:
        m = LISTED.match(line)
        if m:
            listed[m[1]] = m.groups()[1:]
    if not listed:
        print('no checks in the --list-checks output on stdin')
        return 1
    found = list(problems(sys.argv[1], listed))
    for p in found:
        print(p)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
