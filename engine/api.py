"""The Python API for notebooks and scripts: load a ruleset, play it, simulate it.

    >>> from engine import api
    >>> rules = api.load(api.rulesets()[0])
    >>> state = rules.new_game(seed=7)
    >>> len(state.legal_moves()) > 0
    True

Seats are numbered from 0 everywhere a program reads them: the kernel's `State`
(`to_move`, `winner`), records, rows (`simulate` here, `simulate --json/--out`, the
results store: `winner`, `first`) and the interop adapters. `P1`, `P2` on the play
screen are labels for people: P1 is seat 0. See docs/api.md.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Sequence

from engine.extras import require
from engine.kernel import Game, Move, State


@dataclass
class Rules:
    """A loaded, compiled ruleset (with its overlays), ready to start games."""

    ruleset: object  # engine.rules.Ruleset, resolved
    game: Game
    ref: str
    overlays: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.ruleset.id

    @property
    def hash(self) -> str:
        """The hash of the resolved ruleset (records and stored games carry it)."""
        return self.ruleset.hash

    @property
    def players(self) -> range:
        """The player counts the ruleset allows."""
        model = self.game.model
        return range(model.players_min, model.players_max + 1)

    def new_game(self, players: int | None = None, seed: int = 0, deal=None) -> State:
        """A new game, round 1 dealt from `seed` (or from `deal`, piece names)."""
        return self.game.new_game(players, seed, deal=deal)


def load(ruleset: str, overlays: Sequence[str] = ()) -> Rules:
    """Load and compile a ruleset (an id, a game name or a file) with overlays, in order;
    `engine.diagnostics.RulecraftError` carries every problem found."""
    from engine.diagnostics import RulecraftError, Severity
    from engine.rules import check_ruleset, files
    from engine.rules.model import compile_model

    for warning in files.path_warnings():  # (shown once each by Python's warnings filter)
        warnings.warn(warning.removeprefix("warning: "), files.RulesetPathWarning, stacklevel=2)
    resolved, diagnostics = check_ruleset(ruleset, tuple(overlays))
    errors = [d for d in diagnostics if d.level is not Severity.WARNING]
    if resolved is None or errors:
        raise RulecraftError(list(errors or diagnostics))
    model, more = compile_model(resolved)
    if model is None:
        raise RulecraftError(list(more))
    return Rules(resolved, Game(model), ruleset, tuple(overlays))


def rulesets() -> list[str]:
    """The ids of the shipped rulesets, sorted."""
    from engine.rules import files

    return sorted(rid for rid, _ in files.iter_ruleset_files())


def legal_moves(state: State) -> list[str]:
    """The legal moves' texts, in the kernel's fixed order (what `apply` accepts)."""
    return [m.text for m in state.legal_moves()]


def apply(state: State, move: Move | str) -> list:
    """Play a move (a `Move` or its text); its score events. IllegalMove otherwise."""
    return state.apply(move)


def board_text(state: State) -> str:
    """The board as the CLI draws it (face-down cards as `##`)."""
    return state.game.model.topology.render_text(state.board)


def board_svg(state: State, *, highlight=(), last_move=None, seat: int | None = None) -> str:
    """The position as SVG text (`engine.render.render_svg`): the board, the hands (only
    `seat`'s face up, or all when None), the pool and the pile; `highlight` and
    `last_move` mark moves. A pure function: the state is not changed."""
    from engine.render import render_svg

    return render_svg(state, highlight=highlight, last_move=last_move, seat=seat)


class Rows(list):
    """Game rows (`engine.analysis.rows.STORED_FIELDS`), one dict per game, in seed order."""

    def to_pandas(self):
        """The rows as a pandas.DataFrame (pandas is not a dependency: install it)."""
        pandas = require("pandas", "pandas", "Rows.to_pandas()")
        return pandas.DataFrame(list(self))


def simulate(ruleset: str | Rules, games: int = 100, seed: int = 0,
             players: int | None = None, agents: Sequence[str] = ("random",),
             overlays: Sequence[str] = (), jobs: int = 1, as_frame: bool = False):
    """Play `games` seeded games (game i seeded `seed + i`, as `rulecraft simulate`): one
    row per game, as `Rows` (or a pandas.DataFrame with `as_frame`)."""
    from engine.analysis.rows import stored_row
    from engine.analysis.runs import Spec, run_games

    rules = ruleset if isinstance(ruleset, Rules) else load(ruleset, overlays)
    n = rules.game.model.players_default if players is None else players
    if n not in rules.players:
        raise ValueError(f"{rules.id} is for {rules.players.start}-{rules.players.stop - 1}"
                         f" players, not {n}")
    spec = Spec(rules.ref, rules.overlays)
    stats = run_games([spec], n, list(range(seed, seed + games)), list(agents), jobs)[0]
    rows = Rows(stored_row(g, rules.id, rules.hash, rules.overlays, list(agents))
                for g in stats)
    return rows.to_pandas() if as_frame else rows
