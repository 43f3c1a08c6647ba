"""Compile a checked AST into a Python function, once, at load time.

Python source is generated from the checked, folded tree and compiled with the built-in
`compile`. The source is built only from checked nodes: integer and string literals
(written with `repr`), declared names (read as `v["name"]` with the name as a string
literal), fields declared on record types, comprehension variables renamed to `_l0`,
`_l1`..., and the library's fixed helpers. Author text is never run as Python.

Why generated code rather than closures: `benchmarks/bench_expr.py` measures both
(`engine/expr/closures.py` is the closure backend, kept for that comparison and as a
reference semantics). Generated code runs at 0.6-1.5x the cost of the same formula
written by hand (about 1x: it is the same Python); closures at 2.4-5.6x, because every
node costs a Python call. Measured on a loaded 2-core machine, Python 3.11.
"""

from __future__ import annotations

import functools
import keyword
import re
from typing import Callable, Mapping

from engine.expr import ast as A
from engine.expr import runtime
from engine.expr.checker import Checked
from engine.expr.library import FUNCTIONS
from engine.expr.types import ListOf, Record

_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
UNSET = object()  # a definition not yet evaluated in this evaluation


class _NotWritable(Exception):
    """An expression reads a name the caller of `generate_inline` has no text for."""


class _Emitter:
    def __init__(self, checked: Checked):
        self.checked = checked
        self.def_index = {name: i for i, name in enumerate(checked.definitions)}
        #: definitions whose value is a literal: written in place at each use
        self.constants: dict[str, A.Node] = {
            name: tree for name, tree in checked.definitions.items() if _is_literal(tree)
        }
        #: definitions used once, outside any loop: their body written at the use
        self.inlined = _used_once(checked, self.constants)
        #: repeated subexpressions: id of the first -> its variable; ids of later uses
        self.shared_first: dict[int, str] = {}
        self.shared_uses: dict[int, str] = {}
        #: in a filter (`compile_filter`): the names read from each item, and the
        #: subexpressions computed once for all items (id -> variable)
        self.bound: frozenset = frozenset()
        self.invariant: dict[int, str] = {}
        #: in `generate_inline` with names: the Python text each context name is read as
        self.env_text: Mapping[str, str] | None = None
        #: in `generate_inline` with names: definition -> the local keeping its value
        self.kept: dict[str, str] = {}

    def emit(self, node: A.Node) -> str:
        """Python source for a checked node (parenthesised, so it nests safely)."""
        key = id(node)
        if key in self.shared_uses:
            return self.shared_uses[key]
        text = getattr(self, "emit_" + type(node).__name__.lower())(node)
        if key in self.shared_first:
            text = f"({self.shared_first[key]} := {text})"
        if key in self.invariant:
            name = self.invariant[key]
            text = f"({name} if {name} is not _UNSET else ({name} := {text}))"
        return text

    def emit_int(self, node: A.Int) -> str:
        return repr(int(node.value)) if node.value >= 0 else f"({int(node.value)!r})"

    def emit_bool(self, node: A.Bool) -> str:
        return "True" if node.value else "False"

    def emit_str(self, node: A.Str) -> str:
        return repr(str(node.value))

    def emit_name(self, node: A.Name) -> str:
        kind, target = self.checked.refs[id(node)]
        if kind == "local":
            return target
        if kind == "env":
            if target in self.bound:
                return "_p"
            if self.env_text is not None:
                if target not in self.env_text:
                    raise _NotWritable(target)
                return self.env_text[target]
            return f"v[{str(target)!r}]"
        if target in self.constants:
            return self.emit(self.constants[target])
        if target in self.inlined:
            return f"_bounded({self.emit(self.checked.definitions[target])})"
        if target in self.kept:  # (`generate_inline`: a local, worked out once)
            var = self.kept[target]
            body = self.emit(self.checked.definitions[target])
            return f"({var} if {var} is not _UNSET else ({var} := _bounded({body})))"
        return f"_d{self.def_index[target]}(v, _m)"

    def known(self, node: A.Node) -> tuple[bool, object]:
        """(True, value) for a literal or a use of a constant definition."""
        if isinstance(node, A.Name):
            kind, target = self.checked.refs[id(node)]
            if kind == "def" and target in self.constants:
                node = self.constants[target]
        if isinstance(node, (A.Int, A.Bool, A.Str)):
            return True, node.value
        return False, None

    def emit_attr(self, node: A.Attr) -> str:
        if self.env_text is not None and isinstance(node.obj, A.Name):
            # the caller's own text for a context name's attribute (`pool.count`)
            kind, target = self.checked.refs[id(node.obj)]
            if kind == "env" and target not in self.bound:
                text = self.env_text.get(f"{target}.{node.name}")
                if text is not None:
                    return text
        obj = self.emit(node.obj)
        kind = self.checked.types.get(id(node.obj))
        if isinstance(kind, ListOf):  # `xs.count`
            return f"_len({obj})"
        if isinstance(kind, Record) and self.env_text is not None:
            # (a record the caller holds as a plain tuple: the field read by its index)
            text = self.env_text.get(f":{kind.name}.{node.name}")
            if text is not None:
                return f"{obj}{text}"
        if _IDENT.fullmatch(node.name) and not keyword.iskeyword(node.name):
            return f"{obj}.{node.name}"
        return f"getattr({obj}, {str(node.name)!r})"

    def emit_index(self, node: A.Index) -> str:
        return f"{self.emit(node.obj)}[{self.emit(node.index)}]"

    def emit_listexpr(self, node: A.ListExpr) -> str:
        return "[" + ", ".join(self.emit(item) for item in node.items) + "]"

    def emit_unary(self, node: A.Unary) -> str:
        ok, value = self.known(node.operand)
        if ok and node.op == "not":
            return "True" if not value else "False"
        return f"({'not ' if node.op == 'not' else '-'}{self.emit(node.operand)})"

    def emit_binary(self, node: A.Binary) -> str:
        ok, value = self.known(node.left)
        # Python's own short-circuit with a known left operand: `c and x` is x when c
        # is true, else c; `c or x` is c when c is true, else x.
        if ok and node.op == "and":
            return self.emit(node.right) if value else self.emit(node.left)
        if ok and node.op == "or":
            return self.emit(node.left) if value else self.emit(node.right)
        left, right = self.emit(node.left), self.emit(node.right)
        if node.op == "**":
            return f"_pow({left}, {right})"
        if node.op not in _PY_BINARY:
            raise ValueError(f"unchecked operator {node.op!r}")
        return f"({left} {node.op} {right})"

    def emit_cond(self, node: A.Cond) -> str:
        ok, value = self.known(node.test)
        if ok:
            return self.emit(node.then) if value else self.emit(node.other)
        return f"({self.emit(node.then)} if {self.emit(node.test)} else {self.emit(node.other)})"

    def emit_comprehension(self, node: A.Comprehension) -> str:
        _, slot = self.checked.refs[id(node)]
        text = f"{self.emit(node.element)} for {slot} in {self.loop_source(node)}"
        if node.condition is not None:
            text += f" if {self.emit(node.condition)}"
        return f"({text})"

    def loop_source(self, node: A.Comprehension) -> str:
        """The source of a `for`, counted by the step budget when it is part of a nest."""
        source = self.emit(node.source)
        counted = self.checked.loops.get(id(node))
        return source if counted is None else f"_{counted}_steps({source})"

    def emit_call(self, node: A.Call) -> str:
        function = FUNCTIONS[node.func]
        sources = [self.emit(arg) for arg in node.args]
        types = [self.checked.types[id(arg)] for arg in node.args]
        return function.emit(sources, types)


_PY_BINARY = frozenset({"+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=",
                        "in", "not in", "and", "or"})


def _is_literal(tree: A.Node) -> bool:
    if isinstance(tree, A.Int):
        return tree.value.bit_length() <= runtime.MAX_BITS  # else it fails when used
    return isinstance(tree, (A.Bool, A.Str))


def _used_once(checked: Checked, constants) -> set[str]:
    """Definitions referred to exactly once in all, and not inside a comprehension
    (where the reference would run once per item): computing one where it is used
    costs nothing more than memoising it."""
    uses: dict[str, int] = {}
    trees = [checked.root] + [t for n, t in checked.definitions.items() if n not in constants]
    for tree in trees:
        stack = [(tree, False)]
        while stack:
            node, looped = stack.pop()
            if isinstance(node, A.Name):
                kind, target = checked.refs[id(node)]
                if kind == "def" and target not in constants:
                    uses[target] = uses.get(target, 0) + (2 if looped else 1)
            looped = looped or isinstance(node, A.Comprehension)
            stack.extend((child, looped) for child in A.children(node))
    return {name for name, count in uses.items() if count == 1}


_LEAVES = (A.Int, A.Bool, A.Str, A.Name, A.ListExpr)


def _occurrences(root: A.Node) -> dict[str, list[tuple[A.Node, tuple]]]:
    """Candidate subexpressions by canonical text, each with its path from the root
    ((node, child index) edges), in evaluation order; nothing inside a comprehension."""
    found: dict[str, list] = {}
    stack = [(root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, A.Comprehension):
            continue
        if not isinstance(node, _LEAVES) and not any(
            isinstance(n, A.Comprehension) for n in A.iter_nodes(node)
        ):
            found.setdefault(A.to_source(node), []).append((node, path))
        kids = A.children(node)
        stack.extend((kid, path + ((node, i),)) for i, kid in reversed(list(enumerate(kids))))
    return found


def _conditional(node: A.Node, index: int) -> bool:
    """Whether child `index` of `node` may be skipped when `node` is evaluated."""
    if isinstance(node, A.Binary):
        return index == 1 and node.op in ("and", "or")
    return isinstance(node, A.Cond) and index > 0


def _dominates(first: tuple, later: tuple) -> bool:
    """Whether the node at path `first` is evaluated, before, whenever the node at path
    `later` is (the generated code evaluates operands left to right)."""
    common = 0
    while common < min(len(first), len(later)) and first[common] == later[common]:
        common += 1
    if common >= len(first) or common >= len(later):
        return False  # one inside the other
    parent, index = first[common]
    if isinstance(parent, A.Cond) and index > 0:
        return False  # `then` and `else` exclude each other
    return not any(_conditional(node, i) for node, i in first[common + 1:])


def _share(emitter: "_Emitter", root: A.Node) -> None:
    """Compute a repeated subexpression once: its first evaluation is kept in a local
    (`(_cN := ...)`), which later copies read when the first surely ran before them."""
    groups = sorted(_occurrences(root).values(), key=lambda g: -len(A.to_source(g[0][0])))
    covered: set[int] = set()  # nodes inside a later use: never emitted
    for group in groups:
        group = [(n, p) for n, p in group if id(n) not in covered]
        if len(group) < 2:
            continue
        first, path = group[0]
        uses = [n for n, p in group[1:] if _dominates(path, p)]
        if not uses:
            continue
        name = f"_c{len(emitter.shared_first)}"
        emitter.shared_first[id(first)] = name
        for use in uses:
            emitter.shared_uses[id(use)] = name
            covered.update(id(n) for n in A.iter_nodes(use))


def generate(checked: Checked) -> str:
    """The Python source of a function `_expression(v)` for a checked expression.

    Definitions cost nothing per evaluation when they can: a literal one is written in
    place, one used once is computed where it is used; the others are module-level
    functions memoising their value in `_m`, a list made per evaluation."""
    emitter = _Emitter(checked)
    _share(emitter, checked.root)
    lines, memo = [], []
    for name, i in emitter.def_index.items():
        if name in emitter.constants or name in emitter.inlined:
            continue
        body = emitter.emit(checked.definitions[name])
        memo.append(name)
        lines += [f"def _d{i}(v, _m):", f"    r = _m[{i}]", "    if r is _UNSET:",
                  f"        r = _m[{i}] = _bounded({body})", "    return r"]
    lines.append("def _expression(v):")
    if memo:
        lines.append(f"    _m = [_UNSET] * {len(checked.definitions)}")
    lines += ["    try:", f"        return {_bound_if_grows(emitter, emitter.emit(checked.root))}",
              "    except _FAILURES as exc:", "        raise _explain(exc) from exc"]
    return "\n".join(lines) + "\n"


def generate_inline(checked: Checked, names: Mapping[str, str] | None = None,
                    keep: bool = False) -> str | None:
    """The expression as one Python expression over the context `v`, for a caller that
    writes it into a larger generated function (the kernel's compiled steps); None when
    it needs memoised definitions (those need functions of their own). Its shared
    subexpressions use locals `_c0`, `_c1`...; each is assigned before it is read within
    the same expression, so several inlined expressions may share one function.

    With `names`, each context name is read as the caller's Python text for it (the
    caller's own fixed text, such as a local variable) instead of from `v`; None when
    the expression reads a name `names` does not have. A key `name.attribute` gives
    the text of that attribute of the name (read so in place of the attribute); a key
    `:record.field` the text read after any value of that record type for that field
    (`[0]`: the caller holds those records as plain tuples)."""
    emitter = _Emitter(checked)
    kept = [n for n in checked.definitions if n not in emitter.constants and n not in emitter.inlined]
    if kept and not (keep and names is not None):
        return None
    emitter.env_text = names
    # (with `keep` and `names`, each other definition is kept in a local `_q<i>` of the
    # caller's function, reset first and worked out when first read: as lazily as the
    # memo of `generate`; the caller's namespace has `_UNSET`)
    emitter.kept = {name: f"_q{emitter.def_index[name]}" for name in kept}
    _share(emitter, checked.root)
    try:
        text = _bound_if_grows(emitter, emitter.emit(checked.root))
    except _NotWritable:
        return None
    if not kept:
        return text
    resets = "".join(f"({var} := _UNSET), " for var in emitter.kept.values())
    return f"({resets}{text})[-1]"


def may_grow(checked: Checked) -> bool:
    """Whether the value may outgrow MAX_BITS: a `*` or `**` of two parts that are not
    constants, in the expression or a definition written into it (`(x ** 100) * (x **
    100) * ...` builds thousands of digits, and a score of over 4,300 cannot even be
    printed). Only such expressions check their result; memoised definitions always do."""
    emitter = _Emitter(checked)
    trees = [checked.root] + [checked.definitions[name] for name in emitter.inlined]
    return any(isinstance(node, A.Binary) and node.op in ("*", "**")
               and not isinstance(node.left, A.Int) and not isinstance(node.right, A.Int)
               for tree in trees for node in A.iter_nodes(tree))


def _bound_if_grows(emitter: "_Emitter", text: str) -> str:
    if not may_grow(emitter.checked):
        return text
    return f"_bounded({text})"


#: a call of these over a comprehension is written as a loop by `generate_loop`:
#: the statement in the loop for one item (`e` its value, `c` its condition, `t` the
#: target), and the target's value before the first item
_LOOPS = {
    "sum": ("if {c}:\n    {t} += {e}", "{t} += {e}", "0"),
    "any": ("if {c} and {e}:\n    {t} = True\n    break",
            "if {e}:\n    {t} = True\n    break", "False"),
    "all": ("if {c} and not {e}:\n    {t} = False\n    break",
            "if not {e}:\n    {t} = False\n    break", "True"),
}


def generate_loop(checked: Checked, target: str,
                  names: Mapping[str, str] | None = None) -> list[str] | None:
    """A `sum`, `any` or `all` of a comprehension, the whole expression, as Python lines
    setting the local `target` to its value, for a caller writing it into a larger
    generated function (with `names` as in `generate_inline`): a `for` loop costs no
    generator (a frame resumed per item) and no call. The same items are read and
    tested in the same order, `any` and `all` stop at the same item, and the value is
    the same, exactly an int for `sum` (of ints) and a bool for the others. The loop's
    variable is a local of the caller (`_l0`...). None for any other expression, or
    when it cannot be inlined."""
    root = checked.root
    loop = _LOOPS.get(root.func) if isinstance(root, A.Call) else None
    if loop is None or len(root.args) != 1 or not isinstance(root.args[0], A.Comprehension):
        return None
    emitter = _Emitter(checked)
    if any(n not in emitter.constants and n not in emitter.inlined for n in checked.definitions):
        return None
    emitter.env_text = names
    node = root.args[0]  # (nothing is shared outside a comprehension: no `_share`)
    _, slot = checked.refs[id(node)]
    try:
        element, source = emitter.emit(node.element), emitter.loop_source(node)
        condition = None if node.condition is None else emitter.emit(node.condition)
    except _NotWritable:
        return None
    guarded, plain, start = loop
    body = plain.format(t=target, e=element) if condition is None else guarded.format(
        t=target, e=element, c=condition)
    bound = [f"{target} = _bounded({target})"] if may_grow(checked) else []
    return [f"{target} = {start}", f"for {slot} in {source}:"] + [
        "    " + line for line in body.split("\n")] + bound


def _varies(emitter: "_Emitter", node: A.Node) -> bool:
    """Whether `node` may differ between the items of a filter (it reads an item's
    name, a comprehension variable, or a definition that does)."""
    checked = emitter.checked
    for sub in A.iter_nodes(node):
        if isinstance(sub, A.Comprehension):
            return True
        if isinstance(sub, A.Name):
            kind, target = checked.refs[id(sub)]
            if kind == "local" or (kind == "env" and target in emitter.bound):
                return True
            if kind == "def" and target not in emitter.constants and _varies(
                    emitter, checked.definitions[target]):
                return True
    return False


def _hoist(emitter: "_Emitter", root: A.Node) -> None:
    """Mark the largest subexpressions that are the same for every item: each is
    computed when first needed, then kept for the next items."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, _LEAVES) or isinstance(node, A.Comprehension):
            continue
        if not _varies(emitter, node):
            emitter.invariant[id(node)] = f"_i{len(emitter.invariant)}"
            continue
        stack.extend(A.children(node))


def generate_item_condition(checked: Checked, names: frozenset,
                            others: Mapping[str, str] | None = None,
                            ) -> tuple[str, list[str]] | None:
    """The expression as a condition on one item `_p` (the names `names` read it; other
    names come from `v`, or are read as their text in `others` when given), and the
    locals its parts that do not depend on the item are kept in: each must be set to
    `_UNSET` before the first item, and is then computed once, when first needed. None
    when it cannot be written so (a memoised definition would need one memo per item;
    a name neither in `names` nor in `others`)."""
    emitter = _Emitter(checked)
    emitter.bound = frozenset(names)
    emitter.env_text = others
    if any(n not in emitter.constants and n not in emitter.inlined for n in checked.definitions):
        return None
    _share(emitter, checked.root)
    _hoist(emitter, checked.root)
    try:
        return emitter.emit(checked.root), list(emitter.invariant.values())
    except _NotWritable:
        return None


def generate_filter(checked: Checked, names: frozenset) -> str | None:
    """The source of `_filter(v, _items)`: the `(key, item)` pairs of `_items` for which
    the expression is true, the names `names` reading the item. None when an expression
    cannot be written so (a memoised definition would need one memo per item)."""
    found = generate_item_condition(checked, names)
    if found is None:
        return None
    body, invariants = found
    lines = ["def _filter(v, _items):"]
    lines += [f"    {name} = _UNSET" for name in invariants]
    lines += ["    try:", f"        return [(_k, _p) for _k, _p in _items if {body}]",
              "    except _FAILURES as exc:", "        raise _explain(exc) from exc"]
    return "\n".join(lines) + "\n"


def compile_filter(checked: Checked, names: frozenset) -> tuple[Callable | None, str | None]:
    """`_filter(v, items)` for a checked expression (see `generate_filter`), and its
    source; (None, None) when it cannot be made. Evaluating the expression for each
    item with the names bound to it gives the same items, and the same first error."""
    source = generate_filter(checked, names)
    if source is None:
        return None, None
    return _build(source, "_filter"), source


@functools.lru_cache(maxsize=4096)
def _build(source: str, name: str = "_expression") -> Callable:
    namespace = dict(runtime.NAMESPACE, _UNSET=UNSET, __builtins__={"getattr": getattr})
    exec(compile(source, "<expression>", "exec"), namespace)  # generated from checked nodes only
    return namespace[name]


def compile_checked(checked: Checked) -> tuple[Callable, str]:
    """The evaluation function for a checked expression, and its generated source."""
    source = generate(checked)
    return _build(source), source
