"""The `actions:` and `scoring:` sections of a ruleset model, checked and compiled.

`ActionSections` is the part of the model builder (`engine.rules.model`) that reads
each action (a `move` written as an older kind's long form becomes that kind's own
action: `engine.rules.long_forms`) and each scoring rule, each expression compiled in
the context of its action's kind.
"""

from __future__ import annotations

from typing import Mapping

from engine.diagnostics import closest, define
from engine.expr.types import BOOL, INT
from engine.rules.long_forms import intended_kind, read_long_form
from engine.rules.model_values import ActionModel, ScoringRule
from engine.rules.zones import read_move
from engine.topology import Topology

R_ACTION = define("R432", "unknown-action-kind", "an action names a kind the engine does not know")
R_UNSUPPORTED = define(
    "R433", "action-not-supported", "an action kind or deal the board kind cannot carry out"
)
R_TRIGGER = define("R434", "unknown-trigger", "a scoring rule's `on:` names no action")
R_COUNTER = define("R436", "unknown-counter", "`then:` updates a counter that is not declared")
R_RECEIVER = define(
    "R438", "bad-receiver", "a scoring rule's `to:` is unknown or has no meaning for its trigger"
)

ACTION_KINDS = ("place", "draw", "exchange", "pass", "play", "deal", "move")
ROUND_TRIGGERS = ("round_start", "round_end")
RECEIVERS = ("mover", "winner", "losers", "each")
#: kinds whose move is a piece taken from the board; they need the board kind to support it
BOARD_ACTIONS = {"place": "place", "play": "play"}



def suggest(word: str, candidates) -> str | None:
    """A `did you mean` help line, or None."""
    found = closest(str(word), candidates)
    return f"did you mean `{found}`?" if found else None


class ActionSections:
    """The builder's reading of `actions:` and `scoring:` (mixed into it: it uses the
    builder's `report`, `expr`, `where`, `types`, `zone_table` and `action_kinds`)."""

    def action(self, name: str, spec: Mapping, topology: Topology, counters) -> ActionModel | None:
        """One action checked and compiled; None (and diagnostics) if it is wrong."""
        spec = spec or {}
        kind = spec.get("kind")
        path = ("actions", name)
        if kind not in ACTION_KINDS:
            self.report(
                R_ACTION, f"action `{name}` has an unknown kind `{kind}`", path + ("kind",),
                suggest(kind, ACTION_KINDS) or f"kinds: {', '.join(ACTION_KINDS)}",
            )
            return None
        move = None
        if kind == "move":  # (a long form compiles to its own kind's action)
            form = read_long_form(name, spec, self.zone_table, topology, self.report)
            if form is None:  # (its scoring rules are still read as of the kind meant)
                self.action_kinds[name] = intended_kind(spec)
                return None
            kind, spec = form
        needs = BOARD_ACTIONS.get(kind)
        if kind == "move":
            move = read_move(name, spec, self.zone_table, self.report)
            if move is None:
                return None
            needs = "play" if "board" in move.sources else None
        if needs and needs not in topology.actions:
            self.report(
                R_UNSUPPORTED, f"the `{topology.kind}` board cannot carry out `{kind}` actions",
                path + ("kind",),
            )
            return None
        self.action_kinds[name] = kind
        return self.action_model(name, kind, spec, move, topology, counters)

    def action_model(self, name: str, kind: str, spec: Mapping, move, topology: Topology,
                     counters) -> ActionModel:
        """The action of a known kind, its placement rules and expressions compiled."""
        path = ("actions", name)
        action = ActionModel(name, kind, self.where(*path), spec=spec, move=move,
                             guard_pos=self.where(*path, "if"))
        if kind == "place":
            self.diagnostics.extend(
                topology.check_place(spec, lambda *p: self.where("actions", name, *p))
            )
            action.rules = topology.compile_place(spec)
        guard_env = self.types.move(kind) if kind in ("place", "play", "move") else self.types.base
        env = self.types.move(kind)
        if "if" in spec:
            action.guard = self.expr(spec["if"], guard_env, path + ("if",), BOOL)
        for hint in ("safe", "defer"):  # (the solver's: as the move's own conditions read it)
            if hint in spec and kind != "move":
                self.report(R_UNSUPPORTED, f"`{hint}:` is read for `move` actions only, not"
                            f" `{kind}` (`{name}`)", path + (hint,))
            elif hint in spec:
                setattr(action, hint, self.expr(spec[hint], self.types.accepts(),
                                                path + (hint,), BOOL))
        action.then = self.updates(name, spec, env, counters)
        if "extra_turn" in spec:
            action.extra_turn = self.expr(spec["extra_turn"], env, path + ("extra_turn",), BOOL)
        action.ends_turn = bool(spec.get("ends_turn", True))
        action.max = int(spec.get("max", 0) or 0)
        return action

    def updates(self, name: str, spec: Mapping, env, counters) -> tuple:
        """An action's `then:` counter updates, each compiled in the action's context."""
        path = ("actions", name, "then")
        updates = []
        for counter, source in (spec.get("then") or {}).items():
            if counter not in counters:
                self.report(
                    R_COUNTER, f"`then:` of action `{name}` sets an undeclared counter `{counter}`",
                    path + (counter,), suggest(counter, counters) or "declare it under `counters:`",
                )
                continue
            updates.append((counter, self.expr(source, env, path + (counter,), INT)))
        return tuple(updates)

    def scoring(self, actions: Mapping) -> list[ScoringRule]:
        rules = []
        triggers = list(actions) + list(ROUND_TRIGGERS)
        for name, spec in (self.data.get("scoring") or {}).items():
            spec = spec or {}
            path = ("scoring", name)
            on = spec.get("on")
            if on not in triggers:
                self.report(
                    R_TRIGGER, f"scoring rule `{name}` is `on: {on}`, which names no action",
                    path + ("on",), suggest(on, triggers) or f"triggers: {', '.join(triggers)}",
                )
                continue
            to = spec.get("to", "mover")
            if to not in RECEIVERS:
                self.report(
                    R_RECEIVER, f"scoring rule `{name}` has an unknown receiver `to: {to}`",
                    path + ("to",), suggest(to, RECEIVERS) or f"receivers: {', '.join(RECEIVERS)}",
                )
                continue
            if to in ("winner", "losers") and on != "round_end":
                self.report(
                    R_RECEIVER, f"scoring rule `{name}`: `to: {to}` needs `on: round_end` "
                    "(only a round's end has a winner)", path + ("to",),
                )
                continue
            kind = self.action_kinds.get(on) or (
                (actions.get(on) or {}).get("kind", "") if on in actions else on)
            env = self.types.move(kind)
            rule = ScoringRule(
                name, on, self.expr(spec.get("points", 0), env, path + ("points",), INT),
                to=to, label=str(spec.get("label", "")), pos=self.where(*path),
            )
            if "if" in spec:
                rule.guard = self.expr(spec["if"], env, path + ("if",), BOOL)
            rules.append(rule)
        return rules
