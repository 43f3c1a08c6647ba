"""Generate the function reference of `docs/expressions.md` from the library.

`python -m engine.expr.docs` prints the generated section; `--write` replaces it in
`docs/expressions.md` (between the BEGIN/END markers). A test checks that the committed
file holds exactly what this generates, so the reference cannot drift from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.expr.library import FUNCTIONS

BEGIN = "<!-- BEGIN GENERATED: functions (python -m engine.expr.docs --write) -->"
END = "<!-- END GENERATED: functions -->"
DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "expressions.md"


def render_functions() -> str:
    """The markdown for every library function: signature, doc and a checked example."""
    parts = []
    for function in FUNCTIONS.values():
        forms = "  \n".join(f"`{form.strip()}`" for form in function.signature.split(";"))
        parts.append(
            f"### `{function.name}`\n\n{forms}\n\n{function.doc}"
            + (" Also takes a `for` form: `" + function.name + "(E for x in L if C)`."
               if function.takes_list else "")
            + f"\n\n```\n{function.example}    # = {function.result}\n```\n"
        )
    return "\n".join(parts)


def splice(document: str, generated: str) -> str:
    """`document` with the text between the markers replaced by `generated`."""
    head, rest = document.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n\n{generated}\n{END}{tail}"


def main(argv: list[str]) -> int:
    """Print the generated section, or with `--write` update docs/expressions.md."""
    generated = render_functions()
    if "--write" in argv:
        DOC_PATH.write_text(splice(DOC_PATH.read_text(encoding="utf-8"), generated), encoding="utf-8")
    else:
        print(generated)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
