"""The text of a generated program: indented lines, safe comments, and the constants
the text reads.

A program's source holds only the compiler's own fixed text, Python from checked
expression nodes (`Expression.inline`) and comments; every value taken from a ruleset
(pieces, names, labels, positions) is a constant of the module's namespace, read by a
fixed name (`K_pieces`, `K_what[3]`), never written into the source as code. Comments
that point back to the YAML (`# rulesets/GAME/RULESET.yaml:50`) pass through
`comment`, which keeps only a safe set of characters, so no text can end a comment
line and start code.
"""

from __future__ import annotations

import re

from engine.program.template import Lines, marked

_UNSAFE = re.compile(r"[^A-Za-z0-9 _.,:;/+=<>()'`\-\[\]]")
_ASSIGNED = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*) = ")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def comment(text: str) -> str:
    """`text` as one comment line's content: characters outside a safe set (newlines,
    quotes that might matter to a reader, control characters) become `?`."""
    return _UNSAFE.sub("?", str(text))[:160]


def written_fields(seq: str, field: str, size: int, general: str, head: str = "",
                   length: str | None = None) -> str:
    """The text of the tuple `(head..., seq[0].field, ..., seq[size - 1].field)` when
    `seq` holds `size` items (attribute reads cost less than `map` with `attrgetter`),
    else `general`, the same tuple built for any length; `general` alone when `size` is
    not from 1 to 8. `length`: the text of `seq`'s length when the program has it."""
    if not 0 < size <= 8:
        return general
    items = [head] if head else []
    items += [f"{seq}[{k}].{field}" for k in range(size)]
    comma = "," if len(items) == 1 else ""
    return f"({', '.join(items)}{comma}) if {length or f'len({seq})'} == {size} else {general}"


def where(pos) -> str:
    """`file:line` of a position, for a comment (empty when unknown)."""
    return f"{pos.path}:{pos.line}" if pos is not None else "(no position)"


def guarded(*, BODY, SITE, ERRORS, FAILURE):
    """A template (`engine.program.template`): `BODY`, an expression's code, with a
    Python failure of it turned into the RuleFailure of its expression site `SITE`,
    which names the rule and its line (`K_what[site]`, `K_pos[site]`)."""
    try:
        BODY
    except ERRORS as exc:
        raise FAILURE(SITE, exc) from exc


class Source:
    """Lines of a generated module, with their indentation."""

    def __init__(self):
        self.lines: list[str] = []
        #: lines `name = value` (value without side effects) dropped when nothing reads
        #: `name` in the same function
        self.optional: set[int] = set()

    def add(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def local(self, indent: int, text: str) -> None:
        """`name = value`, a local kept only if the function reads it (`text`)."""
        self.optional.add(len(self.lines))
        self.add(indent, text)

    def fragment(self, indent: int, template, consts) -> None:
        """The body of `template` with `consts` written in (`template.fragment`), its
        holes' optional lines kept only where read, as `local` keeps them."""
        for line, optional in marked(template, consts):
            (self.local if optional else self.add)(indent, line)

    def hole(self) -> "Lines":
        """These lines as a template's hole (`template.Lines`), optional ones kept so."""
        return Lines(self.lines, self.optional)

    def note(self, indent: int, text: str) -> None:
        """A comment line (see `comment`)."""
        self.add(indent, "# " + comment(text))

    def block(self, indent: int, lines: list[str]) -> None:
        """`lines`, indented; a hole's optional ones (`Lines.optional`) as `local`s."""
        optional = getattr(lines, "optional", ())
        for i, line in enumerate(lines):
            (self.local if i in optional else self.add)(indent, line)

    def guarded(self, indent: int, body: list[str], site: int) -> None:
        """`body` in a try turning a Python failure of an expression into the
        RuleFailure of expression site `site` (`guarded`, its template)."""
        self.fragment(indent, guarded, dict(BODY=Lines(body), SITE=site, ERRORS="k_ERRORS",
                                            FAILURE="k_failure"))

    def text(self) -> str:
        keep = self._kept()
        return "\n".join(line for i, line in enumerate(self.lines) if keep[i]) + "\n"

    def _kept(self) -> list[bool]:
        """Which lines stay: every optional local that some other code line of its
        function reads (again until nothing more goes: one may read another)."""
        lines, keep = self.lines, [True] * len(self.lines)
        starts = [i for i, line in enumerate(lines) if line.startswith("def ")]
        bounds = list(zip(starts, starts[1:] + [len(lines)]))
        words = [set(_WORD.findall(line)) if not line.lstrip().startswith("#") else set()
                 for line in lines]
        changed = True
        while changed:
            changed = False
            for i in sorted(self.optional):
                if not keep[i]:
                    continue
                name = _ASSIGNED.match(lines[i]).group(1)
                first, end = next(((a, b) for a, b in bounds if a <= i < b), (0, len(lines)))
                if not any(keep[j] and j != i and name in words[j] for j in range(first, end)):
                    keep[i], changed = False, True
        return keep
