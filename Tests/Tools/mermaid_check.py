#!/usr/bin/env python3
"""Parses and renders Mermaid diagrams with mermaid.js itself (the PyPI package mermaidx bundles it
and runs it in QuickJS: no Node, no browser).

usage: mermaid_check.py FILE...
A `.mmd` file is one diagram; in any other file (Markdown) every fenced ```mermaid block is one.
Identical diagrams are rendered once. Prints one line per diagram, `ok` or `FAIL` with where it
came from and mermaid.js's own message, and exits 1 if any failed (2 for a usage error).
"""

import re
import sys

import mermaidx

FENCE = re.compile(r"^(`{3,}|~{3,})\s*mermaid\s*$")


def diagrams(path):
    """(label, source) for each diagram in the file."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if path.endswith(".mmd"):
        return [(path, text)]
    found = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index].strip())
        if not opening:
            index += 1
            continue
        fence, start = opening.group(1), index + 1
        index = start
        # A fence closes on a line of the same character, at least as long, and nothing else.
        while index < len(lines) and not (lines[index].strip().startswith(fence) and set(lines[index].strip()) == {fence[0]}):
            index += 1
        found.append((f"{path}:{start + 1}", "\n".join(lines[start:index]) + "\n"))
        index += 1
    return found


def problem(source):
    """None when mermaid.js parses and renders the diagram, else its message."""
    try:
        svg = mermaidx.render(source).svg()
    except Exception as error:  # mermaidx wraps mermaid.js's parse and render errors in RuntimeError
        return " ".join(str(error).split())
    if "<svg" not in svg:
        return "mermaid.js returned no SVG"
    # A diagram mermaid.js could not draw comes back as its error picture, not as an exception.
    if 'aria-roledescription="error"' in svg or "Syntax error in text" in svg:
        return "mermaid.js drew its error diagram"
    return None


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    seen = {}
    failures = 0
    for path in paths:
        for label, source in diagrams(path):
            if source in seen:
                message = seen[source]
            else:
                message = seen[source] = problem(source)
            if message is None:
                print(f"ok    {label}")
            else:
                failures += 1
                print(f"FAIL  {label}: {message}")
    print(f"{len(seen)} distinct diagrams checked with mermaid.js {mermaid_version()}: {failures} failed")
    return 1 if failures else 0


def mermaid_version():
    try:
        import importlib.metadata as metadata
        return f"(mermaidx {metadata.version('mermaidx')})"
    except Exception:
        return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
