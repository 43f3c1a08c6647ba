"""Named definitions (a ruleset's `define:` section), checked at each use site.

A definition is checked in the context of the expression that uses it, once per
compilation (so a chain of definitions costs linear time, not exponential), and sees
only the context's names and other definitions, never the comprehension variables
around its use. A cycle between definitions is an error.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Callable

from engine.diagnostics import Position
from engine.expr import ast as A
from engine.expr import codes
from engine.expr.parser import SyntaxProblem, parse
from engine.expr.types import ERROR

MAX_DEFINITION_CHAIN = 10  # definitions that use definitions that use ...
CHECKING = object()  # marks a definition being checked, to find cycles


@dataclass(frozen=True)
class Definition:
    """A named expression: its text and where that text starts in its file."""

    source: str | int | bool
    pos: Position | Callable[[int], Position] | None = None


def mapping(source: str, pos) -> Callable[[int], Position]:
    """offset in `source` -> position in the file, from a start position or a function."""
    if callable(pos):
        return pos
    return lambda offset: pos.shifted(offset, source)


def _parse(definition: Definition, name: str) -> A.Node | SyntaxProblem:
    if type(definition.source) is bool:
        return A.Bool(definition.source)
    if type(definition.source) is int:
        return A.Int(definition.source)
    if not isinstance(definition.source, str):
        return SyntaxProblem(0, f"definition `{name}` is not an expression")
    return parse(definition.source)


def check_definition(checker, node: A.Name):
    """The type of definition `node.name` in the checker's context (checking it once)."""
    name = node.name
    state = checker.def_types.get(name)
    if state is CHECKING:
        loop = " -> ".join(checker.chain[checker.chain.index(name):] + [name])
        return checker.report(codes.DEFINITION_CYCLE, node.offset,
                              f"definition `{name}` refers to itself: {loop}")
    if state is not None:
        return state
    if len(checker.chain) >= MAX_DEFINITION_CHAIN:
        checker.def_types[name] = ERROR  # once is enough
        return checker.report(codes.TOO_COMPLEX, node.offset,
                              f"definitions nested more than {MAX_DEFINITION_CHAIN} deep")
    raw = checker.sources[name]
    definition = raw if isinstance(raw, Definition) else Definition(raw)
    tree = _parse(definition, name)
    outer, site = checker.where, node.offset
    if definition.pos is not None and isinstance(definition.source, str):
        where = mapping(definition.source, definition.pos)
    else:
        where = lambda _offset: outer(site)  # noqa: E731 - no position of its own: the use site
    if isinstance(tree, SyntaxProblem):
        checker.where = where
        checker.report(codes.SYNTAX_ERROR, tree.offset, f"in definition `{name}`: {tree.message}", tree.help)
        checker.where = outer
        checker.def_types[name] = ERROR
        return ERROR
    return _check_tree(checker, name, tree, where)


def _check_tree(checker, name: str, tree: A.Node, where) -> object:
    # a definition is evaluated once per evaluation, wherever it is used: its own `for`
    # forms are counted apart from those around its use
    saved = (checker.scopes, checker.nesting, checker.where, checker.iterations)
    checker.scopes, checker.nesting, checker.where, checker.iterations = [], 0, where, 1
    checker.def_types[name] = CHECKING
    checker.chain.append(name)
    before = len(checker.out.problems)
    try:
        if A.depth(tree) > checker.max_depth:
            checked, t = tree, checker.report(codes.TOO_COMPLEX, tree.offset, f"definition `{name}` is nested too deeply")
        else:
            checked, t = checker.check(tree)
    finally:
        checker.chain.pop()
        checker.scopes, checker.nesting, checker.where, checker.iterations = saved
    for problem in checker.out.problems[before:]:
        if "definition `" not in problem.message:
            problem.message += f" (in definition `{name}`)"
    checker.def_types[name] = t
    checker.out.definitions[name] = checked
    return t



_WORD = re.compile(r"(?<![\w.])[A-Za-z_]\w*")  # a name, not a field after `.`


def words_in(sources: list[str]) -> set[str]:
    """The whole words (names, not fields after `.`) of expression sources, found in one
    pass: what a definition's use is looked for in."""
    return {word for source in sources for word in _WORD.findall(source)}
