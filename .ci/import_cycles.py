#!/usr/bin/env python3
"""Import cycles between the source files of the crate.

Reads the `use` statements of src/**/*.rs (`use crate::...`, `use super::...`, `use self::...`
and paths that start with a child module's name, inside functions too) and the same paths
written in the code (`super::save::air_file(..)`), and builds a graph of files: `a/mod.rs` and `a.rs` are module `a`, inline modules (`mod tests {}`)
belong to their file. An import of `crate::sim::X::Y` is an edge to the file of the deepest
module on the path (sim::X, or sim::X::Y if that is a module). Where that module only
re-exports Y (`pub use inner::Y`), the edge goes on to the file that re-export names, so an
import through a facade counts as an import of what it stands for; `--shallow` stops at the
facade. A file's own `pub use` lines and `mod` declarations are not its edges. Test-only code
(`#[cfg(test)]` items and modules) is left out unless `--tests` is given.

Prints every strongly connected group of two or more files (each is at least one cycle) with
one shortest cycle through it and the imports inside it, and exits 1 if there is one.

Then the same for modules, the rooms a reader sees: each file counts as the folder it is in, to
two levels (`src/sim/stages/neighbours/relax.rs` is `sim::stages`, `src/replay/input.rs` is
`replay`), and a file directly in `src/` as its own module (`share`). A cycle between modules
(`replay` -> `preset` -> `level` -> `replay`) fails too, though no two files import each other.

    .ci/import_cycles.py [--tests] [--shallow] [--root src] [PREFIX ...]

With PREFIXes (say src/sim), only groups that hold a file under one of them count.
"""

import argparse
import pathlib
import re
import sys
from collections import deque


def clean(text):
    """The text with comments, strings and character literals blanked (lengths kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif (m := re.compile(r'b?r(#*)"').match(text, i)) and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            end = text.find('"' + m.group(1), m.end())
            j = n if end < 0 else end + 1 + len(m.group(1))
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and (m := re.compile(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'").match(text, i)):
            out.append(" " * (m.end() - i))
            i = m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_tree(tree):
    """The paths of a use tree (`a::{b, c::{self, d}}` -> a::b, a::c, a::c::d), with the name
    each brings in (None for globs); `as` renames are applied to that name."""
    tree = re.sub(r"\s+", "", tree.replace(" as ", "@"))
    tree = tree.replace("@", " as ")

    def walk(prefix, text):
        parts, depth, start = [], 0, 0
        for k, ch in enumerate(text):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(text[start:k])
                start = k + 1
        parts.append(text[start:])
        result = []
        for part in parts:
            part = part.strip()
            if not part:
                continue
            brace = part.find("{")
            if brace >= 0:
                head = part[:brace].rstrip(":")
                inner = part[brace + 1 : part.rindex("}")]
                result += walk(prefix + ([s for s in head.split("::") if s]), inner)
                continue
            name = None
            if " as " in part:
                part, name = part.split(" as ")
            segments = [s for s in part.split("::") if s]
            if segments == ["self"]:
                segments = []
            path = prefix + segments
            if not path:
                continue
            if name is None:
                name = None if path[-1] == "*" else path[-1]
            if path[-1] == "*":
                path = path[:-1]
            result.append((path, name))
        return result

    return walk([], tree)


USE = re.compile(r"\b(pub(\([^)]*\))?\s+)?use\s+([^;]*);")
MOD = re.compile(r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*([{;])")
TEST = re.compile(r"#\[cfg\(test\)\]")
TEST_MOD = re.compile(r"(?:\s*#\[[^\]]*\])*\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)")
PATH = re.compile(r"(?<![\w:.])([A-Za-z_]\w*)((?:::[A-Za-z_]\w*)+)")


def item_end(text, start):
    """Where the item starting at `start` ends: its closing brace, or its semicolon."""
    depth = 0
    for k in range(start, len(text)):
        ch = text[k]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return k + 1
        elif ch == ";" and depth == 0:
            return k + 1
    return len(text)


class Crate:
    def __init__(self, root):
        self.root = root
        self.files = {}  # module path (tuple) -> file
        self.modules = {}  # every module path, inline ones too -> file
        self.test_modules = set()  # modules under #[cfg(test)]
        self.uses = []  # (file, module path, path, name, public, test)
        self.reexports = {}  # module path -> {name: (module path, path)}
        self.globs = {}  # module path -> [(module path, path)]
        self.texts = {}
        for path in sorted(root.rglob("*.rs")):
            rel = path.relative_to(root)
            parts = list(rel.with_suffix("").parts)
            if parts in (["lib"], ["main"]):
                module = () if parts == ["lib"] else ("<bin>",)
            elif parts[-1] == "mod":
                module = tuple(parts[:-1])
            else:
                module = tuple(parts)
            self.files[module] = str(path)
            self.modules[module] = str(path)
            self.texts[str(path)] = clean(path.read_text())
        scopes = {module: self.scopes(module, file) for module, file in self.files.items()}
        for module, file in self.files.items():
            self.scan(module, file, scopes[module])

    def scopes(self, module, file):
        """Offsets where the inline module changes, and the test-only spans, of a file."""
        text = self.texts[file]
        opens = {m.end() - 1: m.group(1) for m in MOD.finditer(text) if m.group(2) == "{"}
        tests = []
        for m in TEST.finditer(text):
            end = item_end(text, m.end())
            tests.append((m.end(), end))
            declared = TEST_MOD.match(text, m.end())
            if declared:
                self.test_modules.add(module + (declared.group(1),))
        stack, depth, changes = [], 0, [(0, module)]
        for k, ch in enumerate(text):
            if ch == "{":
                depth += 1
                if k in opens:
                    stack.append((depth, opens[k]))
                    current = module + tuple(name for _, name in stack)
                    self.modules[current] = file
                    changes.append((k, current))
            elif ch == "}":
                if stack and stack[-1][0] == depth:
                    stack.pop()
                    changes.append((k, module + tuple(name for _, name in stack)))
                depth -= 1
        return changes, tests

    def scan(self, module, file, scopes):
        text = self.texts[file]
        changes, tests = scopes

        def scope(offset):
            found = module
            for at, inner in changes:
                if at > offset:
                    break
                found = inner
            return found

        def test_only(offset, here):
            return (
                any(a <= offset < b for a, b in tests)
                or any(here[:k] in self.test_modules for k in range(1, len(here) + 1))
            )

        for m in USE.finditer(text):
            public = m.group(1) is not None and (m.group(2) in (None, "(crate)", "(super)"))
            here = scope(m.start())
            test = test_only(m.start(), here)
            for path, name in split_tree(m.group(3)):
                self.uses.append((file, here, path, name, public, test))
                if public and not test:
                    if name is None:
                        self.globs.setdefault(here, []).append((here, path))
                    else:
                        self.reexports.setdefault(here, {})[name] = (here, path)
        # Paths written in the code: `super::save::air_file(..)`, `crate::sim::X`, `child::f`.
        code = USE.sub(lambda m: " " * len(m.group(0)), text)
        for m in PATH.finditer(code):
            here = scope(m.start())
            head = m.group(1)
            if head not in ("crate", "super", "self") and here + (head,) not in self.modules:
                continue
            path = [head] + [s for s in m.group(2).split("::") if s]
            self.uses.append((file, here, path, path[-1], False, test_only(m.start(), here)))

    def absolute(self, here, path):
        """The path from the crate root, or None for another crate."""
        if not path:
            return None
        head = path[0]
        if head == "crate":
            return ((), path[1:]) if here[:1] != ("<bin>",) else (("<bin>",), path[1:])
        if head in ("super", "self"):
            base = list(here)
            rest = list(path)
            while rest and rest[0] in ("super", "self"):
                if rest[0] == "super":
                    if not base:
                        return None
                    base.pop()
                rest.pop(0)
            return (tuple(base), rest)
        if here + (head,) in self.modules:
            return (here, list(path))
        return None

    def target(self, here, path, follow, seen=()):
        """The file an import of `path` (written in module `here`) depends on."""
        start = self.absolute(here, path)
        if start is None:
            return None
        module, rest = start
        rest = list(rest)
        while rest and module + (rest[0],) in self.modules:
            module += (rest[0],)
            rest.pop(0)
        if module not in self.modules:
            return None
        if follow and rest and (module, rest[0]) not in seen:
            seen = seen + ((module, rest[0]),)
            if rest[0] in self.reexports.get(module, {}):
                there, inner = self.reexports[module][rest[0]]
                found = self.target(there, inner + rest[1:], follow, seen)
                if found:
                    return found
            for there, inner in self.globs.get(module, []):
                if self.defines(there, inner, rest[0]):
                    found = self.target(there, inner + rest, follow, seen)
                    if found:
                        return found
        return self.modules[module]

    def defines(self, here, path, name):
        """True when the module a glob re-export names has an item or re-export `name`."""
        start = self.absolute(here, path)
        if start is None:
            return False
        module = start[0] + tuple(start[1])
        if module not in self.modules:
            return False
        if name in self.reexports.get(module, {}) or module + (name,) in self.modules:
            return True
        text = self.texts[self.modules[module]]
        item = r"\bpub(\([^)]*\))?\s+(const|static|fn|struct|enum|trait|type|mod)\s+"
        return re.search(item + re.escape(name) + r"\b", text) is not None

    def graph(self, follow, tests):
        edges = {}
        for file, here, path, name, public, test in self.uses:
            if test and not tests:
                continue
            # A file's own re-exports are not its edges (unless its code uses the name too):
            # whoever imports through them depends on what they name (or, with --shallow, on
            # the re-exporting file).
            if public and here == self.module_of(file):
                if name is None or not self.used_apart(file, name):
                    continue
            target = self.target(here, path, follow)
            if target and target != file:
                edges.setdefault(file, {}).setdefault(target, []).append("::".join(path))
        return edges

    def used_apart(self, file, name):
        """True when `name` appears in the file outside its use statements."""
        text = USE.sub(" ", self.texts[file])
        return re.search(r"\b" + re.escape(name) + r"\b", text) is not None

    def module_of(self, file):
        for module, f in self.files.items():
            if f == file:
                return module
        return None


def components(nodes, edges):
    """Strongly connected components (Tarjan), each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            out.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def shortest_cycle(group, edges):
    members = set(group)
    best = None
    for start in group:
        previous = {start: None}
        queue = deque([start])
        while queue:
            v = queue.popleft()
            for w in sorted(edges.get(v, {})):
                if w not in members:
                    continue
                if w == start:
                    cycle = [v]
                    while previous[cycle[-1]] is not None:
                        cycle.append(previous[cycle[-1]])
                    cycle = cycle[::-1] + [start]
                    if best is None or len(cycle) < len(best):
                        best = cycle
                    queue.clear()
                    break
                if w not in previous:
                    previous[w] = v
                    queue.append(w)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("prefixes", nargs="*", help="only count cycles through these paths")
    parser.add_argument("--root", default="src")
    parser.add_argument("--tests", action="store_true", help="count test-only code too")
    parser.add_argument("--shallow", action="store_true", help="do not follow re-exports")
    args = parser.parse_args()
    crate = Crate(pathlib.Path(args.root))
    edges = crate.graph(follow=not args.shallow, tests=args.tests)
    nodes = set(crate.files.values())
    found = 0
    for group in components(nodes, edges):
        if len(group) < 2:
            continue
        if args.prefixes and not any(
            f.startswith(p.rstrip("/") + "/") or f == p for f in group for p in args.prefixes
        ):
            continue
        found += 1
        cycle = shortest_cycle(group, edges)
        print(f"cycle among {len(group)} files: {' -> '.join(cycle)}")
        for v in group:
            for w in sorted(edges.get(v, {})):
                if w in group:
                    imports = ", ".join(sorted(set(edges[v][w])))
                    print(f"  {v} -> {w}: {imports}")
    root = pathlib.Path(args.root)
    module_edges = {}
    for v, targets in edges.items():
        for w, imports in targets.items():
            a, b = room(v, root), room(w, root)
            if a != b:
                module_edges.setdefault(a, {}).setdefault(b, []).extend(
                    f"{v} -> {w}: {i}" for i in imports
                )
    module_nodes = {room(f, root) for f in nodes}
    modules_found = 0
    for group in components(module_nodes, module_edges):
        if len(group) < 2:
            continue
        modules_found += 1
        cycle = shortest_cycle(group, module_edges)
        print(f"cycle among {len(group)} modules: {' -> '.join(cycle)}")
        for a, b in zip(cycle, cycle[1:]):
            for line in sorted(set(module_edges[a][b])):
                print(f"  {a} -> {b}: {line}")
    if found or modules_found:
        print(f"{found} import cycle group(s) between files, {modules_found} between modules")
        return 1
    print("no import cycles between files or modules")
    return 0


def room(file, root):
    """The module a reader sees `file` in: its folder, to two levels, or a file directly in
    the root as its own module (`lib.rs` and `main.rs` as `crate`)."""
    parts = pathlib.Path(file).relative_to(root).parts
    if len(parts) == 1:
        stem = pathlib.Path(parts[0]).stem
        return "crate" if stem in ("lib", "main") else stem
    return "::".join(parts[:-1][:2])


if __name__ == "__main__":
    sys.exit(main())
