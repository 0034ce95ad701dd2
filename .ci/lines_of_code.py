#!/usr/bin/env python3
"""Lines of code per Rust source file: lines that are not blank, not a comment, and not inside a
`#[cfg(test)]` item (inline tests are not counted).

    .ci/lines_of_code.py [--max N] [PATH ...]

Prints each file's count and the total (default: every file under src/). With --max, fails
(exit 1) naming every file above N lines of code.
"""
import argparse
import pathlib
import sys


def lines_of_code(path):
    lines = pathlib.Path(path).read_text().splitlines()
    count, i, in_block = 0, 0, False
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("#[cfg(test)]"):
            # Skip the item that follows: a block by its braces, or one line ending in `;`.
            depth, started, i = 0, False, i + 1
            while i < len(lines):
                depth += lines[i].count("{") - lines[i].count("}")
                started = started or "{" in lines[i]
                i += 1
                if (started and depth <= 0) or (not started and lines[i - 1].strip().endswith(";")):
                    break
            continue
        if in_block:
            in_block = "*/" not in line
        elif line.startswith("/*"):
            in_block = "*/" not in line
        elif line and not line.startswith("//"):
            count += 1
        i += 1
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    paths = args.paths or sorted(str(p) for p in pathlib.Path("src").rglob("*.rs"))
    total, over = 0, []
    for path in paths:
        count = lines_of_code(path)
        total += count
        print(f"{count:6} {path}")
        if args.max is not None and count > args.max:
            over.append(f"{path}: {count} lines of code, more than {args.max}")
    print(f"{total:6} total")
    for line in over:
        print(line, file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
