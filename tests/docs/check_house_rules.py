#!/usr/bin/python3
"""The repository keeps its own house rules.

    check_house_rules.py RULE [ROOT]

RULE is one of:
- design-doc-length: a design doc states the design, not a diary, so it
  stays short (docs/search.md at most 500 lines); dated runs go to
  docs/history/.
- product-text: outside docs/history/, no tracked text file names an issue
  by number or speaks of the machines this project's work was done on as
  lent or borrowed, or of the time allotted on them. The product speaks of the
  product; a machine is described by what it is (16 cores, a GPU). Another
  project's issue cited by its number ("lichess #2846") is fine.
- source-length: no source file (C++, Python, JavaScript, shell) is over 800
  lines.

ROOT is the checkout (default: the one this file is in). Prints one line
per problem (file:line: what) and exits 1 if there is any. Well under a
second; needs only /usr/bin/python3 and git.
"""

import os
import re
import sys

from check_references import tracked_files

DOC_LINE_LIMITS = {"docs/search.md": 500}

# Built from parts so that this file does not match them itself.
PROCESS_TALK = re.compile(
    "|".join([r"len" + r"t (machine|GPU)", r"borrow" + r"ed (machine|GPU)",
              r"devic" + r"e time", r"issu" + r"e[ -][0-9]+"]),
    re.IGNORECASE)
HISTORY = "docs/history/"

SOURCE_LINE_LIMIT = 800
SOURCE_SUFFIXES = (".cc", ".h", ".py", ".js", ".mjs", ".sh")


def read_text(path):
    """The file's text, or None for a binary file (images, weights)."""
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", "replace")


def design_doc_length(root):
    problems = []
    for name, limit in DOC_LINE_LIMITS.items():
        with open(os.path.join(root, name), encoding="utf-8") as f:
            lines = f.read().count("\n")
        if lines > limit:
            problems.append(f"{name}: {lines} lines, more than {limit}: move "
                            "dated runs to docs/history/")
    return problems


def product_text(root):
    problems = []
    for name in tracked_files(root):
        path = os.path.join(root, name)
        if name.startswith(HISTORY) or not os.path.isfile(path):
            continue
        text = read_text(path)
        if text is None:
            continue
        for number, line in enumerate(text.split("\n"), 1):
            m = PROCESS_TALK.search(line)
            if m:
                problems.append(f"{name}:{number}: '{m.group(0)}' speaks of "
                                "how this project works, not of the product")
    return problems


def is_source(name, path):
    if name.endswith(SOURCE_SUFFIXES):
        return True
    if "." in os.path.basename(name):
        return False
    with open(path, "rb") as f:
        return f.read(2) == b"#!"  # a script without a suffix


def source_length(root):
    problems = []
    for name in tracked_files(root):
        path = os.path.join(root, name)
        if not os.path.isfile(path) or not is_source(name, path):
            continue
        text = read_text(path)
        if text is None:
            continue
        lines = text.count("\n")
        if lines > SOURCE_LINE_LIMIT:
            problems.append(f"{name}: {lines} lines, more than {SOURCE_LINE_LIMIT}: split "
                            "it by concern")
    return problems


RULES = {
    "design-doc-length": design_doc_length,
    "product-text": product_text,
    "source-length": source_length,
}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in RULES:
        print(f"usage: {sys.argv[0]} {'|'.join(RULES)} [ROOT]",
              file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(sys.argv[2] if len(sys.argv) > 2
                           else os.path.join(here, "..", ".."))
    problems = RULES[sys.argv[1]](root)
    for problem in problems:
        print(problem)
    print(f"{sys.argv[1]}: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
