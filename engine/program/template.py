"""Generated code made from real functions: a template's body, specialised.

A template is an ordinary, importable Python function whose body is one step of a
program (the turn's end, a copy of the state, ...). Its positional parameters are the
names the generated function has as locals at the place the body goes (`s`, `m`,
`mover`, ...); its keyword-only parameters, in UPPER_CASE, are the rules' numbers and
switches (a field's index in the state, whether a counter is kept) and the namespace
objects it calls. `fragment(template, consts)` is the body's text with each of those
replaced by its value and every branch they decide folded away: what is left is the
code the ruleset needs, no test of a switch at run time, and nothing typed twice. The
same function, called with the same values as keywords, is the step unspecialised (a
test can call it); linters, coverage and the duplicate finder read it as the code it is.

Only whole numbers, booleans, None and tuples of those are written into the text
(`literal`); a string value is the name of one of the program's namespace constants
(`K_hand`, `k_bits`) the text reads in the parameter's place; a mapping's values are
read by attribute (`F.turns` with `F` the state's layout, field name -> index: call
the template with `F=SimpleNamespace(**fields)`).

Two kinds of hole take the text that other parts of the generator write: a `Code`
value (an expression's text, from `Expression.inline` or a board kind's part) is read
where the template reads the parameter, and a `Lines` value (statements' text) stands
where the template names the parameter alone as a statement. Their text is the
generator's, as checked there; the template around them is the code written once. A template reads anything
else (pieces, names from a ruleset) through those constants, never as source.
"""

from __future__ import annotations

import ast
import copy
import inspect
import operator
import pickle
import re
import textwrap
from functools import lru_cache
from typing import Callable, Mapping

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.BitOr: operator.or_,
           ast.BitAnd: operator.and_, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
            ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Is: operator.is_, ast.IsNot: operator.is_not}


class Code(str):
    """A hole's expression: Python text written in where the template reads it."""


class Lines(tuple):
    """A hole's statements: lines of Python text (comments kept) written in where the
    template names the parameter alone as a statement. `optional`: the indexes of its
    lines `name = value` to keep only if their function reads `name` (`Source.local`:
    the generator's binding of the state's lists to locals)."""

    optional: frozenset = frozenset()

    def __new__(cls, lines=(), optional=()):
        made = super().__new__(cls, lines)
        made.optional = frozenset(optional)
        return made


class Inline:
    """A template written out where another template calls it: the constant `PART =
    Inline(part, consts)` read as `PART(a, b)`, a statement, or `x = PART(a, b)` (a
    part returns only at its end), stands for `part`'s body folded with
    `consts`, its positional parameters read as the call's arguments (names or
    constants, never assigned to), its other names the caller's (the part must not
    assign a name the caller reads after it). Called (a template run as a function),
    `part` itself with `consts`."""

    def __init__(self, template: Callable, consts: Mapping[str, object]):
        self.template, self.consts = template, consts

    def __repr__(self) -> str:  # (what `marked`'s cache keys a fragment by)
        consts = sorted((k, _key(v)) for k, v in self.consts.items())
        return f"Inline({self.template.__module__}.{self.template.__qualname__}, {consts!r})"

    def __call__(self, *args):
        return self.template(*args, **self.consts)


def _allowed(value: object) -> bool:
    if isinstance(value, (Code, Lines, Inline)):
        return True
    if isinstance(value, Mapping):
        return all(map(_allowed, value.values()))
    return literal(value) or isinstance(value, str) and value.isidentifier()


def literal(value: object) -> bool:
    """Whether `value` may be written into a program's text as a literal."""
    if isinstance(value, tuple):
        return all(map(literal, value))
    return value is None or isinstance(value, (bool, int))


@lru_cache(maxsize=None)
def _pickled(template: Callable) -> bytes:
    function = ast.parse(textwrap.dedent(inspect.getsource(template))).body[0]
    if not isinstance(function, ast.FunctionDef):
        raise TypeError(f"{template!r} is not a plain function")
    return pickle.dumps(function)


def _parsed(template: Callable) -> ast.FunctionDef:
    """A fresh copy of the template's definition (unpickled: it costs far less than
    parsing again or a deep copy)."""
    return pickle.loads(_pickled(template))


def _enclosed(text: str) -> str:
    """`text` in parentheses, unless one pair encloses it already or it is a name."""
    if text.isidentifier():
        return text
    depth = 0
    for i, char in enumerate(text):
        depth += (char in "([{") - (char in ")]}")
        if depth == 0 and i < len(text) - 1:
            return f"({text})"
    return text if text.startswith("(") else f"({text})"


def _body(template: Callable) -> list[ast.stmt]:
    """A fresh copy of the template's body's statements (no docstring)."""
    body = _parsed(template).body  # (a fresh copy: `_parsed` unpickles one)
    return body[1:] if _docstring(body) else body


def _docstring(body: list[ast.stmt]) -> bool:
    """Whether the statements `body` begin with a docstring."""
    return bool(body) and isinstance(body[0], ast.Expr) and \
        isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)


def fragment(template: Callable, consts: Mapping[str, object]) -> list[str]:
    """The lines of `template`'s body with `consts` (one value for each keyword-only
    parameter, no more) written in and folded (see the module's docstring); an empty
    list when nothing is left."""
    return [line for line, _ in marked(template, consts)]


def hole(template: Callable, consts: Mapping[str, object]) -> "Lines":
    """`fragment`'s lines as a hole of another template, optional lines kept so."""
    lines = marked(template, consts)
    return Lines([line for line, _ in lines], [i for i, (_, opt) in enumerate(lines) if opt])


def define(template: Callable, name: str, consts: Mapping[str, object]) -> list[str]:
    """The lines of a whole function `name`: the template's positional parameters, its
    docstring, and its body as `fragment` gives it (`pass` when nothing is left)."""
    function = _parsed(template)
    function.name, function.decorator_list, function.returns = name, [], None
    function.args.kwonlyargs, function.args.kw_defaults = [], []
    for arg in function.args.args:
        arg.annotation = None
    doc = function.body[:1] if _docstring(function.body) else []
    function.body = doc or [ast.Pass()]
    head = ast.unparse(function).splitlines()[:None if doc else -1]
    return head + ["    " + line for line in fragment(template, consts) or ["pass"]]


def marked(template: Callable, consts: Mapping[str, object]) -> list[tuple[str, bool]]:
    """`fragment`'s lines, each with whether it is optional (`Lines.optional`); kept
    by the template and the constants' text, since a generator asks for the same
    fragment many times (every program's guarded expressions, turn's end, ...)."""
    key = (template, repr(sorted((k, _key(v)) for k, v in consts.items())))
    found = _MADE.get(key)
    if found is None:
        found = _MADE[key] = _marked(template, consts)
    return found


#: (template, its constants' text) -> its lines (the whole session's: a few thousand)
_MADE: dict = {}


def _key(value: object) -> object:
    """A constant's text for the cache: a hole's optional lines count too."""
    if isinstance(value, Lines):
        return ("Lines", tuple(value), tuple(sorted(value.optional)))
    if isinstance(value, Mapping):
        return sorted(value.items())
    return (type(value).__name__, value)


def _marked(template: Callable, consts: Mapping[str, object]) -> list[tuple[str, bool]]:
    wanted = set(constants(template))
    if set(consts) != wanted:
        missing, extra = sorted(wanted - set(consts)), sorted(set(consts) - wanted)
        raise TypeError(f"{template.__name__}: constants missing {missing}, unknown {extra}")
    for name, value in consts.items():
        if not _allowed(value):
            raise TypeError(f"{name} = {value!r} is not a literal a program may hold")
    folder = _Folder(consts)
    folded = folder.statements(_body(template))
    return _fill([line for stmt in folded for line in ast.unparse(stmt).splitlines()],
                 folder.holes, folder.codes)


def _fill(lines: list[str], holes: list[Lines], codes: list[str]) -> list[tuple[str, bool]]:
    """`lines` with each hole's marker replaced by its lines, at the marker's indent, and
    each `Code` marker by its text."""
    out = []
    for line in lines:
        if _CODE in line:
            line = _CODE_MARK.sub(lambda found: codes[int(found.group(1))], line)
        body = line.lstrip()
        if body.startswith(_MARK) and body.endswith("()"):
            pad, hole = line[:len(line) - len(body)], holes[int(body[len(_MARK):-2])]
            out += [(pad + text, i in hole.optional) for i, text in enumerate(hole)]
        else:
            out.append((line, False))
    return out


_MARK = "__hole_"
_CODE = "__code_"
_CODE_MARK = re.compile(r"__code_(\d+)__")


def parameters(template: Callable) -> tuple[str, ...]:
    """The names the body reads as the generated function's locals."""
    return tuple(a.arg for a in _parsed(template).args.args)


def constants(template: Callable) -> tuple[str, ...]:
    """The names `fragment` writes values in for (the keyword-only parameters)."""
    return tuple(a.arg for a in _parsed(template).args.kwonlyargs)


class _Folder(ast.NodeTransformer):
    """Writes the constants in and folds what they decide."""

    def __init__(self, consts: Mapping[str, object]):
        self.consts = consts
        self.holes: list[Lines] = []
        self.codes: list[str] = []

    def code(self, text: str) -> ast.Name:
        """A marker name for a `Code` hole, its text written in by `_fill`."""
        self.codes.append(_enclosed(text.strip()))
        return ast.Name(f"{_CODE}{len(self.codes) - 1}__", ast.Load())

    def _hole(self, stmt: ast.stmt) -> Lines | None:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Name):
            value = self.consts.get(stmt.value.id)
            return value if isinstance(value, Lines) else None
        return None

    def statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            hole = self._hole(stmt)
            if hole is not None:
                if hole:  # (a marker call, replaced by the lines after `unparse`)
                    call = ast.Call(ast.Name(f"{_MARK}{len(self.holes)}", ast.Load()), [], [])
                    self.holes.append(hole)
                    out.append(ast.Expr(call))
                continue
            if _unrolled(stmt):
                out += self._unroll(stmt)
                continue
            part = self._inline(stmt)
            if part is not None:
                out += part
                continue
            if isinstance(stmt, ast.If):
                test = _truth(self.visit(stmt.test))
                if isinstance(test, ast.Constant):  # a switch: keep the branch it takes
                    out += self.statements(stmt.body if test.value else stmt.orelse)
                    continue
                stmt.test = test
            out.append(self._compound(stmt) if _BLOCKS & set(stmt._fields) else self.visit(stmt))
        return out

    def _unroll(self, loop: ast.For) -> list[ast.stmt]:
        """A loop over `unroll(items)` written out: its body once per item, folded."""
        if loop.orelse or _jumps(loop.body):
            raise TypeError("a loop to unroll has no `else`, `break` or `continue`")
        out: list[ast.stmt] = []
        for item in _items(self.visit(loop.iter.args[0])):
            names = _Names(_bind(loop.target, item))
            out += self.statements([names.visit(stmt) for stmt in copy.deepcopy(loop.body)])
        return out

    def _inline(self, stmt: ast.stmt) -> list[ast.stmt] | None:
        """The statements of an `Inline` part that `stmt` calls, or None."""
        call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and isinstance(self.consts.get(call.func.id), Inline)):
            return None
        part = self.consts[call.func.id]
        names = parameters(part.template)
        args = [self.visit(arg) for arg in call.args]
        if call.keywords or len(args) != len(names) or not all(
                isinstance(a, (ast.Name, ast.Constant)) for a in args):
            raise TypeError(f"{call.func.id}: call it with its {len(names)} parameters, "
                            "each a name or a constant")
        folder = _Folder(part.consts)
        body = [_Names(dict(zip(names, args))).visit(s)
                for s in folder.statements(_body(part.template))]
        if folder.holes:
            raise TypeError(f"{call.func.id}: a part written in place has no holes")
        value = body.pop().value if body and isinstance(body[-1], ast.Return) else None
        if isinstance(stmt, ast.Assign):
            if value is None:
                raise TypeError(f"{call.func.id}: its body ends with no `return` to assign")
            if ast.unparse(stmt.targets[0]) != ast.unparse(value):  # (`x = x`: left out)
                body.append(ast.Assign(stmt.targets, value, lineno=0))
        elif value is not None and not isinstance(value, (ast.Name, ast.Constant)):
            body.append(ast.Expr(value))  # (the value left unread, its effects not)
        if any(isinstance(n, ast.Return) for s in body for n in ast.walk(s)):
            raise TypeError(f"{call.func.id}: a part written in place returns only at its end")
        return body

    def _compound(self, stmt: ast.stmt) -> ast.stmt:
        """A block statement: its blocks folded as statements, the rest visited."""
        for name in stmt._fields:
            value = getattr(stmt, name)
            if name in _BLOCKS:
                folded = self.statements(value) if name != "handlers" else [
                    self._compound(h) for h in value]
                setattr(stmt, name, folded or ([ast.Pass()] if name == "body" else []))
            elif isinstance(value, ast.AST):
                setattr(stmt, name, self.visit(value))
            elif isinstance(value, list):
                setattr(stmt, name, [self.visit(v) if isinstance(v, ast.AST) else v
                                     for v in value])
        return stmt

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.consts:
            value = self.consts[node.id]
            if isinstance(value, Mapping):
                raise TypeError(f"{node.id} is read by attribute only")
            if isinstance(value, Lines):
                raise TypeError(f"{node.id} holds statements: it stands alone as one")
            if isinstance(value, Code):  # (its text goes in after `unparse`: `_fill`)
                return self.code(value)
            if isinstance(value, str):  # (the name of a namespace constant)
                return ast.copy_location(ast.Name(value, ast.Load()), node)
            return ast.copy_location(_constant(value), node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        base = node.value
        if isinstance(base, ast.Name) and isinstance(self.consts.get(base.id), Mapping):
            table = self.consts[base.id]
            if node.attr not in table:
                raise TypeError(f"{base.id}.{node.attr}: no such constant")
            return ast.copy_location(_constant(table[node.attr]), node)
        return self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant):
            return ast.Constant(not node.operand.value)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        node = self.generic_visit(node)
        op = _BINARY.get(type(node.op))
        if op and _ints(node.left, node.right):
            return ast.Constant(op(node.left.value, node.right.value))
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        node = self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        left, right, op = node.left, node.comparators[0], type(node.ops[0])
        if op in _COMPARE and _ints(left, right, none=True):
            return ast.Constant(_COMPARE[op](left.value, right.value))
        if op is ast.In and isinstance(right, ast.Tuple) and not right.elts:
            return ast.Constant(False)  # (`x in ()`)
        if op is ast.In and isinstance(right, ast.Tuple) and len(right.elts) == 1 \
                and _ints(right.elts[0]):  # (`x in (3,)`: `x == 3`)
            return ast.Compare(left, [ast.Eq()], [right.elts[0]])
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        """`A and x` / `A or x` with `A` a constant: what Python would give."""
        node = self.generic_visit(node)
        values = list(node.values)
        stops = isinstance(node.op, ast.Or)  # (`or` stops at a true value)
        while len(values) > 1 and isinstance(values[0], ast.Constant):
            if bool(values[0].value) == stops:
                return values[0]
            values.pop(0)
        return values[0] if len(values) == 1 else ast.BoolOp(node.op, values)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            return node.body if node.test.value else node.orelse
        return node


def unroll(items):
    """Marks a loop, `for x in unroll(items):`, that `fragment` writes out: its body
    once per item, the loop's names read as the item's parts. The items, once the
    constants are written in, are a tuple (of names, constants, and tuples of them) or
    `range(...)` of whole numbers; the body has no `break` or `continue` of its own.
    Called (a template run as a function), the items themselves: the loop runs."""
    return items


def _unrolled(stmt: ast.stmt) -> bool:
    """Whether `stmt` is a loop over `unroll(...)`."""
    return isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Call) and \
        isinstance(stmt.iter.func, ast.Name) and stmt.iter.func.id == "unroll" and \
        len(stmt.iter.args) == 1 and not stmt.iter.keywords


def _items(node: ast.expr) -> list[ast.expr]:
    """The items of an unrolled loop: a tuple's, or the numbers of a `range`."""
    if isinstance(node, ast.Tuple):
        return list(node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "range" and _ints(*node.args) and not node.keywords:
        return [ast.Constant(i) for i in range(*(a.value for a in node.args))]
    raise TypeError(f"`{ast.unparse(node)}`: not items to unroll (a tuple, a range)")


def _bind(target: ast.expr, item: ast.expr) -> dict[str, ast.expr]:
    """The loop's names (`target`) bound to the parts of `item`."""
    if isinstance(target, ast.Name):
        return {target.id: item}
    if isinstance(target, ast.Tuple) and isinstance(item, ast.Tuple) and \
            len(target.elts) == len(item.elts):
        found: dict[str, ast.expr] = {}
        for name, part in zip(target.elts, item.elts):
            found.update(_bind(name, part))
        return found
    raise TypeError(f"`{ast.unparse(item)}` does not unpack into `{ast.unparse(target)}`")


def _jumps(nodes) -> bool:
    """Whether a `break` or `continue` among `nodes` is the loop's that holds them
    (those of a loop inside are its own, but in its `else`)."""
    for node in nodes:
        if isinstance(node, (ast.Break, ast.Continue)):
            return True
        inside = node.orelse if isinstance(node, (ast.For, ast.While)) else \
            [] if isinstance(node, (ast.FunctionDef, ast.Lambda)) else \
            list(ast.iter_child_nodes(node))
        if _jumps(inside):
            return True
    return False


class _Names(ast.NodeTransformer):
    """Reads names as expressions (a copy each time): an unrolled loop's as its items,
    an inlined part's parameters as the call's arguments. None is assigned to: the
    text then does what the loop or the call does."""

    def __init__(self, names: dict[str, ast.expr]):
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id not in self.names:
            return node
        if not isinstance(node.ctx, ast.Load):
            raise TypeError(f"`{node.id}` is assigned to: it stands for "
                            f"`{ast.unparse(self.names[node.id])}`")
        return ast.copy_location(copy.deepcopy(self.names[node.id]), node)


#: the fields of a block statement that hold statements (or handlers of them)
_BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers"})


def _truth(test: ast.expr) -> ast.expr:
    """A test read for its truth only: constants that cannot decide an `and` (true ones)
    or an `or` (false ones) dropped wherever they stand."""
    if not isinstance(test, ast.BoolOp):
        return test
    keep = isinstance(test.op, ast.Or)  # (the value that decides an `or`)
    values = [v for v in map(_truth, test.values)
              if not (isinstance(v, ast.Constant) and bool(v.value) != keep)]
    if any(isinstance(v, ast.Constant) for v in values):
        return ast.Constant(keep)  # (a deciding constant)
    if not values:
        return ast.Constant(not keep)
    return values[0] if len(values) == 1 else ast.BoolOp(test.op, values)


def _ints(*nodes, none: bool = False) -> bool:
    """Whether every node is a whole number or boolean (or None, with `none`)."""
    kinds = (int, bool, type(None)) if none else (int, bool)
    return all(isinstance(n, ast.Constant) and type(n.value) in kinds for n in nodes)


def _constant(value: object) -> ast.expr:
    if isinstance(value, str):
        return ast.Name(value, ast.Load())
    if isinstance(value, tuple):
        return ast.Tuple([_constant(v) for v in value], ast.Load())
    return ast.Constant(value)
