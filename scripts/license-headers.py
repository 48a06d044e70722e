#!/usr/bin/env python3
# The licence header of every source file (swift-nio's and Hummingbird's form):
#   scripts/license-headers.py          adds it where it is missing
#   scripts/license-headers.py --check  changes nothing; exits 1 naming each file without it
# Swift, C, C++ and header files, shell and Python scripts tracked by git (or new and not
# ignored); the generated protocol code keeps what protoc wrote. After a shebang or a
# `// swift-tools-version` line, which must stay first.
import subprocess
import sys

BODY = [
    "",
    "This source file is part of the photomill open source project",
    "",
    "Copyright (c) 2026 the photomill authors",
    "Licensed under Apache License v2.0",
    "",
    "See LICENSE for license information",
    "",
    "SPDX-License-Identifier: Apache-2.0",
    "",
]
SLASHES = "//===----------------------------------------------------------------------===//"
HASHES = "##===----------------------------------------------------------------------===##"


def header(comment):
    rule = SLASHES if comment == "//" else HASHES
    return "\n".join([rule] + [(comment + " " + line).rstrip() for line in BODY] + [rule]) + "\n"


def comment_of(path):
    if path.endswith((".swift", ".h", ".c", ".cpp")):
        return "//"
    if path.endswith((".sh", ".py")) or path == ".ci/run":
        return "#"
    return None


def files():
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True).stdout.decode()
    for path in out.split("\0"):
        if path and not path.startswith("Sources/MillProtocol/Generated/") and comment_of(path):
            yield path


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        print("usage: scripts/license-headers.py [--check]", file=sys.stderr)
        return 64
    missing = []
    for path in files():
        try:
            text = open(path, encoding="utf-8").read()
        except FileNotFoundError:
            continue  # deleted in the work tree, still in the index
        if "SPDX-License-Identifier: Apache-2.0" in text[:2000]:
            continue
        missing.append(path)
        if check:
            continue
        lines = text.splitlines(keepends=True)
        first = 1 if lines and (lines[0].startswith("#!") or lines[0].startswith("// swift-tools-version")) else 0
        block = header(comment_of(path))
        rest = "".join(lines[first:])
        # One blank line between the header and what follows.
        lines = lines[:first] + [block] + ([] if rest.startswith("\n") else ["\n"]) + [rest]
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("".join(lines))
    if check and missing:
        for path in missing:
            print(f"{path}: no licence header (SPDX-License-Identifier: Apache-2.0); "
                  "scripts/license-headers.py adds it", file=sys.stderr)
        return 1
    if not check and missing:
        print(f"license-headers: added to {len(missing)} files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
