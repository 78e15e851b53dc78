#!/usr/bin/python3
"""The repository refers only to files it has.

Two checks, over the repository given as the first argument (default: the
checkout this file is in):
- every relative link and image in README.md and docs/**/*.md leads to a file
  or folder of the repository, and a link's #anchor to a heading of the
  Markdown file it names (GitHub's rule for heading ids);
- no tracked file cites the specs that lived outside the repository (the
  rules, protocol, search, training and web notes, or a ../shared folder):
  the repository's own docs/rules.md, docs/protocol.md, ... hold them now;
- every docs/NAME.md that a tracked file names (a code comment, a script's
  help) exists.

Prints one line per problem (file:line: what) and exits 1 if there is any.
Costs well under a second.
"""

import os
import re
import subprocess
import sys

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# Built from parts so that this file does not cite them itself.
OUTSIDE_NAMES = ["RULES", "PROTOCOL", "SEARCH-NOTES", "TRAINING-NOTES",
                 "WEB-NOTES"]
OUTSIDE_SPEC = re.compile(
    r"\b(" + "|".join(re.escape(n) for n in OUTSIDE_NAMES) + r")\.md\b"
    + "|" + re.escape("..") + r"/shared\b")
DOC_PATH = re.compile(r"(?<![\w./-])docs/[\w./-]*?\.md\b")


def prose_lines(text):
    """(line number, line, line with inline code blanked) outside fenced
    and indented code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * 3
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is None and not line.startswith("    "):
            yield number, line, re.sub(r"(`+)(?:(?!\1).)+?\1", "``", line)


def slug(title):
    """GitHub's id for a heading: lower case, punctuation dropped."""
    title = re.sub(r"<[^>]+>", "", title)
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # links: their text
    title = title.strip().lower().replace("`", "")
    title = re.sub(r"[^\w\- ]", "", title)
    return title.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        ids, seen = set(), {}
        with open(path, encoding="utf-8") as f:
            for _, line, _ in prose_lines(f.read()):
                m = HEADING.match(line)
                if m:
                    base = slug(m.group(2))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    ids.add(base if n == 0 else f"{base}-{n}")
        cache[path] = ids
    return cache[path]


def markdown_files(root):
    files = [os.path.join(root, "README.md")]
    for folder, _, names in os.walk(os.path.join(root, "docs")):
        files += [os.path.join(folder, n) for n in names if n.endswith(".md")]
    return sorted(f for f in files if os.path.isfile(f))


def broken_links(root):
    problems = []
    for path in markdown_files(root):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # Links are read with inline code blanked: `[x](y)` there is no link.
        for number, _, line in prose_lines(text):
            for target in LINK.findall(line):
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                    continue  # http:, https:, mailto:
                where = f"{os.path.relpath(path, root)}:{number}"
                file_part, _, anchor = target.partition("#")
                resolved = (os.path.normpath(os.path.join(
                    os.path.dirname(path), file_part)) if file_part else path)
                if not resolved.startswith(os.path.abspath(root)):
                    problems.append(f"{where}: {target} leaves the repository")
                elif not os.path.exists(resolved):
                    problems.append(f"{where}: {target}: no such file")
                elif anchor and resolved.endswith(".md"):
                    if anchor not in anchors(resolved):
                        problems.append(
                            f"{where}: {target}: no heading #{anchor} in "
                            f"{os.path.relpath(resolved, root)}")
    return problems


def tracked_files(root):
    try:
        listing = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                                 check=True, capture_output=True).stdout
        return [n for n in listing.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []  # not a git checkout: the sources, without build folders
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs
                       if not d.startswith((".", "build", "fuzz-out"))]
            names += [os.path.relpath(os.path.join(folder, n), root)
                      for n in files]
        return names


def outside_citations(root):
    problems = []
    me = os.path.abspath(__file__)
    for name in tracked_files(root):
        path = os.path.join(root, name)
        if os.path.abspath(path) == me or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data[:8192]:
            continue  # binary: images, weights
        for number, line in enumerate(
                data.decode("utf-8", "replace").split("\n"), 1):
            m = OUTSIDE_SPEC.search(line)
            if m:
                problems.append(f"{name}:{number}: cites {m.group(0)}, "
                                "which is not in the repository")
            for doc in DOC_PATH.findall(line):
                if not os.path.isfile(os.path.join(root, doc)):
                    problems.append(f"{name}:{number}: names {doc}, "
                                    "which is not in the repository")
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                           else os.path.join(here, "..", ".."))
    problems = broken_links(root) + outside_citations(root)
    for problem in problems:
        print(problem)
    print(f"{len(markdown_files(root))} Markdown files, "
          f"{len(problems)} broken references")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
