"""Count the Python written inside string literals in `engine/`.

Code generated as text is invisible to linters, coverage and the duplicate finder; the
redesign (one implementation of each rule) keeps it small. This script tokenizes every
module, takes each string literal that is not a docstring, and counts the lines of it
that parse, alone, as a Python statement: an assignment, a block's opening line, a
`return`, a call... (an f-string's `{...}` fields are read as names). An expression that
is not a call (`[]`, `x + 1`: a piece of a larger line), an annotation (`error: x`, far
more often prose) and a lone `pass` do not count. Prose rarely parses; `s[3] += 1`,
`for x in hand:`, `hand.append(pool.pop())` or `return moves` do.

The before-stop hook's `../shared/hooks/code_in_strings.py` counts a narrower set: it
skips every f-string that has a field, where this script reads the fields as names.
Both figures go in docs/performance.md.

    python benchmarks/string_python.py            # the total and the ten largest modules
    python benchmarks/string_python.py --all      # every module with such lines
    python benchmarks/string_python.py --show engine/program/steps.py   # the lines
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_FIELD = re.compile(r"\{[^{}]*\}")
_PREFIX = re.compile(r"^[rRbBuUfF]*")
#: a line ending in `:` opens a block: give it a body so that it parses alone
_BLOCK_END = re.compile(r":\s*(#.*)?$")


def _body(token_text: str) -> str:
    """The text between a literal's quotes, f-string fields read as a name `x`."""
    prefix = _PREFIX.match(token_text).group(0)
    text = token_text[len(prefix):]
    quote = text[:3] if text[:3] in ('"""', "'''") else text[0]
    body = text[len(quote):-len(quote)]
    if "f" in prefix.lower():
        body = _FIELD.sub("x", body.replace("{{", "(").replace("}}", ")"))
    return body


def is_statement(line: str) -> bool:
    """Whether `line`, stripped, parses as a statement of code (see the module's
    docstring; a block's opening line counts, given a body)."""
    text = line.strip().replace("\\n", "").strip()
    if not text or text.startswith("#"):
        return False
    if _BLOCK_END.search(text):
        text = text + "\n    pass"
    if text.startswith(("elif ", "else", "except", "finally")):
        text = "if x:\n    pass\n" + text if not text.startswith(("except", "finally")) \
            else "try:\n    pass\n" + text
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    statement = tree.body[-1] if tree.body else None
    if isinstance(statement, ast.Expr):  # a call is a statement; `[]` or `x + 1` a piece
        return isinstance(statement.value, ast.Call) and " " not in text.split("(")[0]
    # `error: x` (an annotation) and a lone `pass` are prose or words more often than code
    return statement is not None and not isinstance(
        statement, (ast.AnnAssign, ast.Pass, ast.Break, ast.Continue))


def _docstring_lines(source: str) -> set[int]:
    """The first lines of every docstring of a module."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                lines.add(body[0].lineno)
    return lines


def python_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of each string-literal line of `path` that parses as Python."""
    source = path.read_text(encoding="utf-8")
    docstrings = _docstring_lines(source)
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.STRING or token.start[0] in docstrings:
            continue
        for offset, line in enumerate(_body(token.string).split("\n")):
            if is_statement(line):
                found.append((token.start[0] + offset, line.strip()))
    return found


def count(root: Path) -> dict[str, int]:
    """Module path -> its count, for every module of `root` with any."""
    counts = {}
    for path in sorted(root.rglob("*.py")):
        n = len(python_lines(path))
        if n:
            counts[str(path.relative_to(ROOT))] = n
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every module, not the ten largest")
    parser.add_argument("--show", metavar="MODULE", help="print the lines found in one module")
    args = parser.parse_args()
    if args.show:
        for number, text in python_lines(ROOT / args.show):
            print(f"{args.show}:{number}: {text}")
        return
    counts = count(ROOT / "engine")
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    for name, n in ranked if args.all else ranked[:10]:
        print(f"{n:6d}  {name}")
    print(f"{sum(counts.values()):6d}  lines of Python in string literals, "
          f"in {len(counts)} modules of engine/")


if __name__ == "__main__":
    main()
