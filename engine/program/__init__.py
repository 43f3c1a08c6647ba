"""Each ruleset compiled to one program: a generated Python module of plain functions
over plain data (docs/architecture.md, "The compilation pipeline").

    program = compile_program(game)        # or NotCompiled(reason)
    s = program.new(players, seed)         # the interpreter's deal for that seed
    while not program.is_over(s):
        program.apply(s, rng.choice(program.legal(s)))
    program.scores(s), program.events(s), program.to_state(s)

The interpreter (`engine.kernel`) stays the reference and the fallback: a ruleset or
feature the compiler does not cover raises NotCompiled with the reason, and
`program_for(game)` answers None (and `why_not(game)` the reason).
"""

from __future__ import annotations

from engine.program.build import compile_program, program_for, program_source, why_not
from engine.program.plan import NotCompiled
from engine.program.program import Program

__all__ = ["NotCompiled", "Program", "compile_program", "program_for", "program_source",
           "why_not"]
