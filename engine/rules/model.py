"""The ruleset model: a resolved ruleset checked for meaning, its expressions compiled.

`compile_model(ruleset)` knows the format: which fields are expressions and in which
context each is evaluated (see `engine.rules.contexts`). It compiles every expression
once, checks what the schema cannot (a board kind that exists, an `on:` that names an
action, enough pieces for the hands, ...) and reports R43x-R44x diagnostics with the
position of the offending value. The kernel runs a `Model`, never the raw data.
"""

from __future__ import annotations

from typing import Mapping

from engine.diagnostics import Diagnostic, Position, Severity, counted, define
from engine.expr import compile_expression
from engine.expr.definitions import Definition, words_in
from engine.expr.types import BOOL
from engine.pieces import GENERATORS, Piece, TooManyPieces, build_pieces
from engine.rules.cycles import check_can_cycles
from engine.rules.zone_model import finish_zones
from engine.rules.display import check_display
from engine.rules.model_actions import (
    ACTION_KINDS, R_UNSUPPORTED, ActionSections, suggest,
)
from engine.rules.model_values import (
    ActionModel, EndCondition, Model, Opening, ScoringRule, WinnerSpec,
)
from engine.rules.zones import read_zone_deal, read_zones
from engine.topology import BOARD_KINDS, Topology
from engine.topology.base import R_UNFIT

R_BOARD = define("R430", "unknown-board-kind", "the board kind is not one the engine knows")
R_COMPONENT = define(
    "R431", "unknown-component-kind", "a component set names a generator the engine does not know"
)
R_TOO_MANY_PIECES = define("R427", "too-many-pieces",
                           "the components describe more pieces than a ruleset may have")
R_PIECES = define(
    "R435", "not-enough-pieces", "the hands and the deal need more pieces than the set has"
)
R_WINNER = define("R437", "bad-winner", "a `winner:` is not `mover`, `lowest: [...]` or `highest: [...]`")
R_UNUSED = define(
    "R439", "unused-definition", "a `define:` entry that no expression uses", Severity.WARNING
)
R_PLAYERS = define("R440", "bad-player-count", "`players:` min, max and default do not agree")
R_OBJECTIVE = define("R490", "objective-contradicts-winner",
                     "`match.winner` picks the highest score under `objective: lowest`",
                     Severity.WARNING)
R_DEAL = define("R441", "bad-deal", "a `setup.deal` step deals to a place that does not exist")


def compile_model(ruleset) -> tuple[Model | None, list[Diagnostic]]:
    """Check a resolved ruleset's meaning and compile every expression in its context."""
    return _Builder(ruleset).build()


class _Builder(ActionSections):
    """Walks the resolved data once, collecting every problem before giving up."""

    def __init__(self, ruleset):
        self.rs = ruleset
        self.data = ruleset.data
        self.diagnostics: list[Diagnostic] = []
        self.sources: list[str] = []
        self.failed = False
        self.too_many_pieces = False
        self.action_kinds: dict[str, str] = {}  # action name -> the kind it compiled to

    # -- helpers --------------------------------------------------------------------
    def where(self, *path) -> Position | None:
        try:
            return self.rs.where(*path)
        except Exception:  # noqa: BLE001 - a Ruleset-like object without that path
            return None

    def report(self, code, message: str, path: tuple, help: str | None = None,
               fields: tuple = ()) -> None:
        """A diagnostic at `path`; with `fields`, at whichever of them was written last."""
        blame = getattr(self.rs, "blame", None)
        pos = blame(path, fields) if fields and blame else self.where(*path)
        while pos is None and len(path) > 1:
            path = path[:-1]
            pos = self.where(*path)
        self.diagnostics.append(Diagnostic(code.code, message, pos, help))

    def expr(self, source, env, path: tuple, expected=None):
        """Compile one expression field; None (and diagnostics) if it is wrong."""
        if isinstance(source, str):
            self.sources.append(source)
        locator = getattr(self.rs, "locator", None)  # lands carets inside quoted scalars
        pos = (locator(*path) if locator else None) or self.where(*path)
        pos = pos or Position(str(getattr(self.rs, "path", "<ruleset>")))
        compiled, problems = compile_expression(
            source, env, pos, expected=expected, definitions=self.definitions
        )
        self.diagnostics.extend(problems)
        if compiled is None:
            self.failed = True
        return compiled

    # -- sections -------------------------------------------------------------------
    def build(self) -> tuple[Model | None, list[Diagnostic]]:
        from engine.rules.contexts import ContextTypes

        d = self.data
        self.definitions = {
            name: Definition(src, self.where("define", name))
            for name, src in (d.get("define") or {}).items()
        }
        pmin, pmax, pdefault = self.players()
        pieces, kinds = self.components()
        topology = self.board()
        counters = {str(k): int(v) for k, v in (d.get("counters") or {}).items()}
        actions_data = d.get("actions") or {}
        if topology is None:
            return None, self.diagnostics
        self.fitting(topology, pieces)
        self.zone_table = read_zones(d, self.report)
        self.types = ContextTypes(kinds, topology, counters, actions_data, self.zone_table)
        actions = tuple(self.action(n, a, topology, counters) for n, a in actions_data.items())
        model = Model(
            ruleset=self.rs, pieces=tuple(pieces), topology=topology,
            players_min=pmin, players_max=pmax, players_default=pdefault,
            counters=counters, actions=tuple(a for a in actions if a is not None),
        )
        model.scoring = tuple(self.scoring(actions_data))
        self.setup(model, topology)
        self.rounds(model)
        self.limits(model)
        self.finish(model, pieces)
        failed = self.failed or any(x.is_error for x in self.diagnostics)
        return (None if failed else model), self.diagnostics

    def finish(self, model: Model, pieces) -> None:
        """The model's last parts (zones, what its expressions read), and the checks
        over the whole ruleset."""
        d = self.data
        zones = d.get("zones") or {}
        model.zone_names = {k: (v or {}).get("name", k) for k, v in zones.items()}
        model.refill = bool((zones.get("hand") or {}).get("refill", False))
        model.tracks_unable = any("unable_in_row" in src for src in self.sources)
        model.reads_clock = self.reads_clock()
        model.definitions = self.definitions
        finish_zones(self, model)
        self.unused_definitions()
        check_display(d, pieces, self.report)
        check_can_cycles(model.actions, self.definitions, self.report)

    def fitting(self, topology: Topology, pieces) -> None:
        """R443 for each component set whose pieces the board kind cannot hold."""
        for name, why in topology.check_pieces(pieces).items():
            self.report(R_UNFIT, f"the `{topology.kind}` board cannot hold the pieces of `{name}`: {why}",
                        ("components", name, "corners"), "use a board kind made for these pieces, or other pieces")

    def players(self) -> tuple[int, int, int]:
        spec = self.data.get("players") or {}
        pmin, pmax = int(spec.get("min", 1)), int(spec.get("max", spec.get("min", 1)))
        pdefault = int(spec.get("default", pmin))
        if pmin < 1 or pmin > pmax:
            self.report(R_PLAYERS, f"players: min {pmin} and max {pmax} do not agree", ("players",),
                        fields=("min", "max"))
        elif not pmin <= pdefault <= pmax:
            self.report(
                R_PLAYERS, f"players: default {pdefault} is not between {pmin} and {pmax}",
                ("players",), fields=("default", "min", "max"),
            )
        return pmin, max(pmin, pmax), min(max(pdefault, pmin), max(pmin, pmax))

    def components(self) -> tuple[list[Piece], list[str]]:
        good, kinds = {}, []
        for name, spec in (self.data.get("components") or {}).items():
            kind = (spec or {}).get("kind")
            if kind not in GENERATORS:
                self.report(
                    R_COMPONENT, f"component set `{name}` has an unknown kind `{kind}`",
                    ("components", name, "kind"), suggest(kind, GENERATORS),
                )
                continue
            good[name] = spec
            kinds.append(kind)
        try:
            return build_pieces(good), kinds
        except TooManyPieces as exc:
            self.too_many_pieces = True
            self.report(R_TOO_MANY_PIECES, f"the components make {exc}",
                        ("components", *exc.field), "use fewer values, corners or counts")
            return [], kinds
        except (KeyError, TypeError, ValueError) as exc:
            self.report(R_COMPONENT, f"cannot build the pieces: {exc}", ("components",))
            return [], kinds

    def board(self) -> Topology | None:
        spec = self.data.get("board") or {}
        kind = spec.get("kind")
        cls = BOARD_KINDS.get(kind)
        if cls is None:
            self.report(
                R_BOARD, f"unknown board kind `{kind}`", ("board", "kind"),
                suggest(kind, BOARD_KINDS) or f"known kinds: {', '.join(sorted(BOARD_KINDS))}",
            )
            return None
        problems = cls.check_spec(spec, lambda *p: self.where("board", *p))
        self.diagnostics.extend(problems)
        if any(p.is_error for p in problems):
            return None
        return cls(spec)


    def setup(self, model: Model, topology: Topology) -> None:
        spec = self.data.get("setup") or {}
        sizes = spec.get("hand_size", 0)
        counts = range(model.players_min, model.players_max + 1)
        if isinstance(sizes, Mapping):
            model.hand_size = {int(k): int(v) for k, v in sizes.items()}
        else:
            model.hand_size = {n: int(sizes or 0) for n in counts}
        deal = []
        for i, step in enumerate(spec.get("deal") or []):
            to, count = (step or {}).get("to"), (step or {}).get("count")
            if to not in ("board", "pile", "pool", "hand") and to in (self.data.get("zones") or {}):
                zone_deal = read_zone_deal(step, ("setup", "deal", i), self.zone_table, self.report)
                if zone_deal is not None:
                    deal.append((zone_deal.key, zone_deal))
            elif to not in ("board", "pile"):
                self.report(R_DEAL, f"setup.deal step {i + 1} deals to `{to}`; "
                            "it must be `board` or `pile`", ("setup", "deal", i, "to"))
            elif to == "board" and "play" not in topology.actions:
                self.report(R_UNSUPPORTED, f"the `{topology.kind}` board is not dealt onto",
                            ("setup", "deal", i, "to"))
            else:
                deal.append((to, None if count is None else int(count)))
        model.deal = tuple(deal)
        if not self.too_many_pieces:  # with no pieces built, every count would be short
            self.check_piece_count(model, topology)
        opening = spec.get("opening")
        if opening:
            env = self.types.with_piece()
            keys = [
                self.expr(src, env, ("setup", "opening", "rank", i))
                for i, src in enumerate(opening.get("rank") or [True])
            ]
            also = opening.get("may_also_open_with")
            model.opening = Opening(
                tuple(keys),
                None if also is None else self.expr(
                    also, env, ("setup", "opening", "may_also_open_with"), BOOL
                ),
            )

    def check_piece_count(self, model: Model, topology: Topology) -> None:
        dealt = 0
        for to, count in model.deal:
            if hasattr(count, "counts"):  # a deal into zones
                count = sum(count.counts)
            elif count is None:
                try:
                    count = topology.new_board().capacity()
                except NotImplementedError:
                    count = 0
            dealt += count
        for n in range(model.players_min, model.players_max + 1):
            need = n * model.hand_size_for(n) + dealt
            if need > len(model.pieces):
                self.report(
                    R_PIECES,
                    f"{counted(n, 'player')} x {counted(model.hand_size_for(n), 'piece')}"
                    + (f" + {dealt} dealt" if dealt else "")
                    + f" = {need}, more than the {len(model.pieces)} pieces of the set",
                    ("setup", "hand_size"),
                    "lower the hand size for that many players, or `players.max`",
                )
                return

    def winner(self, spec, path: tuple, default: WinnerSpec) -> WinnerSpec:
        if spec is None:
            return default
        if spec == "mover":
            return WinnerSpec("mover")
        if isinstance(spec, Mapping) and len(spec) == 1:
            mode, keys = next(iter(spec.items()))
            if mode in ("lowest", "highest") and isinstance(keys, list) and keys:
                env = self.types.base
                return WinnerSpec(mode, tuple(
                    self.expr(k, env, path + (mode, i)) for i, k in enumerate(keys)
                ))
        self.report(
            R_WINNER, f"`winner: {spec}` is not `mover`, `lowest: [keys]` or `highest: [keys]`",
            path, "for example `winner: {lowest: [player.hand_count, player.hand_value]}`",
        )
        return default

    def rounds(self, model: Model) -> None:
        conds = []
        for name, spec in ((self.data.get("round") or {}).get("end") or {}).items():
            spec = spec or {}
            path = ("round", "end", name)
            cond = self.expr(spec.get("if", False), self.types.base, path + ("if",), BOOL)
            winner = self.winner(spec.get("winner"), path + ("winner",), WinnerSpec("none"))
            conds.append(EndCondition(name, cond, winner, self.where(*path)))
        model.round_end = tuple(conds)
        match = self.data.get("match") or {}
        if "end_if" in match:
            model.match_end = self.expr(match["end_if"], self.types.base, ("match", "end_if"), BOOL)
        model.match_winner = self.winner(
            match.get("winner"), ("match", "winner"), WinnerSpec("default", ())
        )
        model.objective = str(match.get("objective", "highest"))
        model.score_name = str(match.get("score_name", ""))
        if model.objective == "lowest" and model.match_winner.mode == "highest":
            self.report(
                R_OBJECTIVE, "`match.winner: {highest: ...}` contradicts `objective: lowest`",
                ("match", "winner"),
                "drop `match.winner` (the objective chooses the lowest score) or use `lowest:`",
            )

    def reads_clock(self) -> bool:
        """Whether an expression (or a definition) reads `clock`."""
        defined = [str(src) for src in (self.data.get("define") or {}).values()]
        return "clock" in words_in(self.sources + defined)

    def limits(self, model: Model) -> None:
        limits = self.data.get("limits") or {}
        model.max_rounds = int(limits.get("max_rounds", model.max_rounds))
        model.max_turns_per_round = int(limits.get("max_turns_per_round", model.max_turns_per_round))
        model.undo = bool((self.data.get("play") or {}).get("undo", True))

    def unused_definitions(self) -> None:
        # Linear: each source is read for words once (rescanning every source for each
        # definition took minutes with thousands of definitions).
        used = words_in(self.sources)
        users: dict[str, set[str]] = {}
        for name, source in (self.data.get("define") or {}).items():
            for word in words_in([str(source)]):
                users.setdefault(word, set()).add(name)
        for name in self.definitions:
            if name not in used and not users.get(name, set()) - {name}:
                self.report(
                    R_UNUSED, f"definition `{name}` is never used", ("define", name),
                    "remove it, or use it in an expression",
                )


__all__ = [
    "ActionModel", "EndCondition", "Model", "Opening", "ScoringRule", "WinnerSpec",
    "compile_model", "suggest", "ACTION_KINDS", "GENERATORS", "BOARD_KINDS",
]
