"""Text to AST with the lark grammar in `grammar.lark`.

The LALR parser builds AST nodes while it parses (lark's embedded transformer), so no
step recurses over the parse tree: a deeply nested expression cannot blow the stack
before the nesting guard in the checker sees it. Syntax errors come back as a
`SyntaxProblem` with the character offset; the caller turns it into a diagnostic at
the right place in the YAML file.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from engine.expr import ast as A
from engine.expr.runtime import MAX_BITS

# More digits than this cannot be a number of MAX_BITS bits (int() is not even tried:
# Python refuses to read one of over 4,300 digits).
MAX_DIGITS = len(str(2**MAX_BITS))

MAX_LENGTH = 2000  # characters; a ruleset expression is a line or two

TOKEN_WORDS = {
    "IF": "`if`", "THEN": "`then`", "ELSE": "`else`", "OR": "`or`", "AND": "`and`",
    "NOT": "`not`", "IN": "`in`", "FOR": "`for`", "TRUE": "`true`", "FALSE": "`false`",
    "CMP": "a comparison", "PLUS": "`+`", "MINUS": "`-`", "POW": "`**`",
    "MULOP": "`*`", "LSQB": "`[`", "RSQB": "`]`", "LPAR": "`(`", "RPAR": "`)`",
    "COMMA": "`,`", "DOT": "`.`", "NAME": "a name", "INT": "a number",
    "STRING": "a string", "$END": "the end of the expression",
}


@dataclass(frozen=True)
class SyntaxProblem:
    """Why the text does not parse, and at which character (0-based offset)."""

    offset: int
    message: str
    help: str | None = None
    code: str = "E301"


class _NumberTooLarge(Exception):
    """A number literal over MAX_BITS, found while parsing (at `offset`)."""

    def __init__(self, offset: int, digits: int):
        super().__init__(offset, digits)
        self.offset, self.digits = offset, digits


def too_large_problem(offset: int, digits: int | None = None) -> SyntaxProblem:
    """E314 for a number too large to be a score (a literal of `digits` digits)."""
    size = f"a {digits:,}-digit number" if digits else "a number"
    return SyntaxProblem(offset, f"{size} is over {MAX_BITS} bits, the largest the"
                         " expressions compute with", "no score needs a number this large",
                         code="E314")


def _pos(item) -> dict:
    if isinstance(item, Token):
        return {"offset": item.start_pos, "line": item.line, "col": item.column}
    return {"offset": item.offset, "line": item.line, "col": item.col}


def _unescape(body: str) -> str:
    out, chars = [], iter(body)
    for char in chars:
        if char == "\\":
            nxt = next(chars, "")
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
        else:
            out.append(char)
    return "".join(out)


class _Build(Transformer):
    """Callbacks named after the grammar's rules and aliases."""

    def int_(self, children):
        (tok,) = children
        digits = tok.lstrip("0") or "0"
        if len(digits) > MAX_DIGITS or int(digits).bit_length() > MAX_BITS:
            raise _NumberTooLarge(tok.start_pos, len(digits))
        return A.Int(int(digits), **_pos(tok))

    def true(self, children):
        return A.Bool(True, **_pos(children[0]))

    def false(self, children):
        return A.Bool(False, **_pos(children[0]))

    def string(self, children):
        (tok,) = children
        return A.Str(_unescape(tok[1:-1]), **_pos(tok))

    def name(self, children):
        (tok,) = children
        return A.Name(str(tok), **_pos(tok))

    def attr(self, children):
        obj, tok = children
        return A.Attr(obj, str(tok), name_offset=tok.start_pos, **_pos(obj))

    def index(self, children):
        obj, idx = children
        return A.Index(obj, idx, **_pos(obj))

    def list_(self, children):
        start, *items = children
        return A.ListExpr(tuple(i for i in items if i is not None), **_pos(start))

    def unary(self, children):
        op, operand = children
        return A.Unary(str(op), operand, **_pos(op))

    def binary(self, children):
        left, op, right = children
        return A.Binary(str(op), left, right, op_offset=op.start_pos, **_pos(left))

    def not_in(self, children):
        left, op, _, right = children
        return A.Binary("not in", left, right, op_offset=op.start_pos, **_pos(left))

    def cond(self, children):
        start, test, _, then, _, other = children
        return A.Cond(test, then, other, **_pos(start))

    def args(self, children):
        return tuple(children)

    def comprehension(self, children):
        element, _, var, _, source, *rest = children
        condition = rest[1] if len(rest) == 2 else None
        return (A.Comprehension(element, str(var), source, condition, **_pos(element)),)

    def call(self, children):
        tok, args = children
        return A.Call(str(tok), args or (), **_pos(tok))


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    # the basic lexer: a keyword is a keyword everywhere, never a name where no keyword fits
    return Lark(grammar, parser="lalr", lexer="basic", transformer=_Build(), maybe_placeholders=True)


VALUE_START = {"LPAR", "MINUS", "LSQB", "FALSE", "TRUE", "NAME", "INT", "STRING", "NOT", "IF"}
OPERATORS = {"PLUS", "MINUS", "MULOP", "POW", "CMP", "IN", "NOT", "AND", "OR", "DOT", "LSQB"}


def _expected(names) -> str:
    """What the parser would have accepted, in words: `a value`, `an operator`, `)`..."""
    names = {n for n in names if not n.startswith("__")}
    words = []
    if {"NAME", "INT"} <= names:
        words.append("a value")
        names -= VALUE_START
    if {"PLUS", "MULOP"} <= names:
        words.append("an operator")
        names -= OPERATORS
    words += sorted(TOKEN_WORDS.get(n, n) for n in names)
    return " or ".join(words)


def _help_for(text: str, offset: int) -> str | None:
    rest = text[offset:]
    if rest.startswith("&&") or rest.startswith("||"):
        return "write `and` / `or`"
    if rest.startswith("!") and not rest.startswith("!="):
        return "write `not`"
    if rest.startswith("=") and not rest.startswith("=="):
        return "compare with `==`"
    if rest[:1] in ("'", '"'):
        return "a string needs its closing quote, on the same line"
    return None


def _problem(text: str, err: UnexpectedInput) -> SyntaxProblem:
    if isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    ):
        expected = getattr(err, "expected", None) or getattr(err, "accepts", ())
        return SyntaxProblem(len(text), f"unexpected end of expression; expected {_expected(expected)}")
    if isinstance(err, UnexpectedToken):
        offset = err.token.start_pos
        message = f"unexpected `{err.token}`; expected {_expected(err.accepts or err.expected)}"
        if err.token.type == "CMP" and "CMP" not in (err.accepts or err.expected):
            message = f"comparisons do not chain: `{err.token}` after a comparison"
            return SyntaxProblem(offset, message, "join the comparisons with `and`")
        help = _help_for(text, offset)
        if err.token.type == "NOT":
            help = "`not` binds more loosely than the operators: put it in parentheses, `(not x)`"
        return SyntaxProblem(offset, message, help)
    offset = err.pos_in_stream
    char = text[offset] if isinstance(err, UnexpectedCharacters) and offset < len(text) else ""
    return SyntaxProblem(offset, f"unexpected character `{char}`", _help_for(text, offset))


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> A.Node | SyntaxProblem:
    """Parse expression text into an AST, or say where and why it does not parse."""
    if len(text) > MAX_LENGTH:
        return SyntaxProblem(0, f"expression is {len(text)} characters long; the limit is {MAX_LENGTH}",
                             "split it into named definitions (`define:`)", code="E307")
    if not text.strip():
        return SyntaxProblem(0, "empty expression")
    try:
        return _parser().parse(text)
    except UnexpectedInput as err:
        return _problem(text, err)
    except _NumberTooLarge as err:
        return too_large_problem(err.offset, err.digits)
