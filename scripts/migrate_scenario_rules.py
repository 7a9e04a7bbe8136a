#!/usr/bin/env python3
"""Moves the `Rules: a, b.` sentence that ends a scenario's `about` into the
structured `rules:` field (issue 30), leaving `about` prose.

Usage: scripts/migrate_scenario_rules.py FILE.yaml ...  (rewrites in place;
a file without a trailing `Rules:` list, or with a `rules:` field already,
is left as it is).
"""
import re
import sys


def migrate(text):
    lines = text.split("\n")
    if any(l.startswith("rules:") for l in lines):
        return None
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("about: >-"))
    except StopIteration:
        return None
    end = start + 1
    while end < len(lines) and (lines[end].startswith("  ") or lines[end] == ""):
        end += 1
    block = lines[start + 1:end]
    joined = "\n".join(block)
    at = joined.rfind("Rules:")
    if at < 0:
        return None
    listed = joined[at + len("Rules:"):]
    ids = [w.strip().rstrip(".") for w in re.split(r"[,\s]+", listed)]
    ids = [i for i in ids if i]
    kept = joined[:at].rstrip()
    new_block = [l.rstrip() for l in kept.split("\n")]
    if not any(l.strip() for l in new_block):
        return None
    out = lines[:start + 1] + new_block + ["rules: [" + ", ".join(ids) + "]"] + lines[end:]
    return "\n".join(out)


def main():
    changed = 0
    for path in sys.argv[1:]:
        with open(path) as f:
            text = f.read()
        new = migrate(text)
        if new is not None and new != text:
            with open(path, "w") as f:
                f.write(new)
            changed += 1
    print(f"{changed} of {len(sys.argv) - 1} files migrated")


if __name__ == "__main__":
    main()
