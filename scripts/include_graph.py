#!/usr/bin/env python3
"""Fails when an #include breaks the rooms' allowed arrows (docs/architecture.md).

A room may include the rooms listed before it in its layer list; rules/ and
runtime/ never include analyzer/, and runtime/ never includes rules/. Of
runtime/, analyzer/ may include only trace/ (the trace format, which the
shim writes and confirm reads), and rules/ nothing."""
import os
import re
import sys

LAYERS = {
    'analyzer': ['support', 'findings', 'config', 'formats', 'frontend', 'speed', 'driver',
                 'confirm', 'lsp', 'cli'],
    'rules': ['framework', 'analyses', 'checks'],
}
RUNTIME_ROOMS = ['trace', 'shim', 'doctor']
SHARED_RUNTIME = 'trace'
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room_of(top, path):
    parts = path.split(os.sep)
    rooms = LAYERS.get(top, RUNTIME_ROOMS)
    return parts[0] if len(parts) > 1 and parts[0] in rooms else None


def headers(root):
    """Include name (relative to its folder's include root) -> (top, room)."""
    out = {}
    for top in list(LAYERS) + ['runtime']:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                rel = os.path.relpath(os.path.join(d, f), os.path.join(root, top))
                out[rel] = (top, room_of(top, rel))
    return out


def violations(root):
    known = headers(root)
    for top in list(LAYERS) + ['runtime']:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(('.cpp', '.h')):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, os.path.join(root, top))
                here = room_of(top, rel) if top in LAYERS else None
                with open(path, encoding='utf-8') as src:
                    text = src.read()
                for m in INCLUDE.finditer(text):
                    line = text.count('\n', 0, m.start()) + 1
                    target = known.get(m.group(1))
                    if target is None:
                        continue
                    ttop, troom = target
                    where = '%s:%d: ' % (os.path.relpath(path, root), line)
                    if top != ttop:
                        if ttop == 'analyzer' or top == 'runtime':
                            yield where + '%s/ may not include %s/%s' % (top, ttop, m.group(1))
                        elif ttop == 'runtime' and (top == 'rules' or troom != SHARED_RUNTIME):
                            yield where + '%s/ may not include runtime/%s (allowed: %s)' % (
                                top, m.group(1), 'none' if top == 'rules' else SHARED_RUNTIME + '/')
                        continue
                    if top == 'runtime':
                        continue
                    if here is None or troom is None or troom == here:
                        continue
                    order = LAYERS[top]
                    if order.index(troom) > order.index(here):
                        yield where + '%s/%s/ may not include %s/ (allowed: %s)' % (
                            top, here, troom, ', '.join(order[:order.index(here)]) or 'none')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    found = list(violations(root))
    for v in found:
        print(v)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
