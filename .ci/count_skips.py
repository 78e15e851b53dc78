#!/usr/bin/python3
"""Fails (status 1) when a test run skipped anything: CI must test
everything, so a skip is an error, not a pass. Reads CTest's JUnit report
(ctest --output-junit FILE; CTestCustom.cmake keeps every test's whole
output in it) and counts
- CTest's skips (SKIP_RETURN_CODE, a GoogleTest GTEST_SKIP through
  gtest_discover_tests' SKIP_REGULAR_EXPRESSION, a disabled test),
- GoogleTest's "[  SKIPPED ]" in a test program run as one CTest entry,
- pytest's "N skipped" and unittest's "skipped=N" inside a CTest entry.

  count_skips.py JUNIT.xml...
"""
import re
import sys
import xml.etree.ElementTree as ElementTree

PATTERNS = [
    (re.compile(r"^\[  SKIPPED \] \S+ \(\d+ ms\)$", re.M), "GTEST_SKIP"),
    (re.compile(r"^=*\s*(?:\d+ \w+, )*(\d+) skipped\b.* in [\d.]+s\b", re.M), "pytest"),
    (re.compile(r"^(?:OK|FAILED) \(.*skipped=(\d+)", re.M), "unittest"),
]


def skips_in(report):
    found = []
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        name = case.get("name")
        output = case.findtext("system-out") or ""
        if case.get("status") in ("notrun", "disabled") or case.find("skipped") is not None:
            reason = case.find("skipped")
            found.append(f"{name}: skipped by CTest "
                         f"({reason.get('message') if reason is not None else case.get('status')})"
                         f"{': ' + output.strip().splitlines()[-1] if output.strip() else ''}")
            continue
        for pattern, kind in PATTERNS:
            for match in pattern.finditer(output):
                found.append(f"{name}: {kind} skip: {match.group(0).strip()}")
    return found


def main():
    found = [skip for report in sys.argv[1:] for skip in skips_in(report)]
    for skip in found:
        print(f"skipped: {skip}", file=sys.stderr)
    if found:
        print(f"{len(found)} skip(s): CI runs every test (README's test command "
              "installs and builds everything they need)", file=sys.stderr)
        return 1
    print(f"no test skipped ({', '.join(sys.argv[1:])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
