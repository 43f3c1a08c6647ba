"""Moves at the play prompt: the best few by points, every move grouped by action, and
what a typed text means (a number, a move's text, a shorter form, `@N` for a slot),
with the reason in words when it is not a legal move."""

from __future__ import annotations

import re

from rich.text import Text

from engine.cli.screen import Screen, points_text
from engine.kernel import IllegalMove

_SLOT = re.compile(r"^@(\d{1,6})$")


def ranked(state) -> list[tuple[int, object, list]]:
    """(points, move, events) of every legal move, best first (ties: the legal order):
    the numbering of the prompt and of `moves`."""
    from engine.players.agents import ranked_moves

    return [(gain, move, events) for gain, _, move, events in ranked_moves(state)]


def rules_text(events, seat: int) -> str:
    """`lines +8, multiplier +5`: the seat's points by rule, without file positions."""
    parts = [f"{e.rule} {e.points:+d}" for e in events if e.player == seat]
    return ", ".join(parts)


def show_best(screen: Screen, state, rows, count: int) -> None:
    """The `count` best moves, numbered, with their points and the rules behind them."""
    width = max((len(m.text) for _, m, _ in rows[:count]), default=0)
    for i, (gain, move, events) in enumerate(rows[:count], 1):
        line = Text(f"  {i:>3}. {move.text:<{width}}  ")
        line.append(points_text(gain, 4))
        why = rules_text(events, state.to_move)
        if why:
            line.append(f"  {why}", style="note")
        screen.say(line)
    if len(rows) > count:
        screen.say(f"  ... {len(rows) - count} more: `moves` lists them all", style="note")


def show_all(screen: Screen, state, rows) -> None:
    """Every legal move grouped by action, in columns, each with its number and points."""
    numbered = list(enumerate(rows, 1))
    for action in state.game.actions:
        group = [(i, gain, m) for i, (gain, m, _) in numbered if m.action == action.name]
        if not group:
            continue
        screen.say(f"{action.name} ({len(group)}):", style="title")
        cells = [f"{i:>3}. {m.arg or m.text} {gain:+d}" for i, gain, m in group]
        width = max(len(c) for c in cells) + 2
        per_line = max(1, (screen.width() - 2) // width)
        for start in range(0, len(cells), per_line):
            screen.say("  " + "".join(c.ljust(width) for c in cells[start:start + per_line]))


def resolve(state, text: str, rows=None, ruleset=None):
    """The legal move a person means by `text` (number, full text, or a shorter form);
    raises IllegalMove with the reason."""
    text = " ".join(text.split())
    listed = [m for _, m, _ in rows] if rows is not None else state.legal_moves()
    if text.isascii() and text.isdigit():  # (`²` is a digit to Python, not to int())
        if len(text) > 6:  # a number of thousands of digits is no move number
            raise IllegalMove(f"there is no move number {text[:6]}... (1 to {len(listed)})")
        index = int(text)
        if 1 <= index <= len(listed):
            return listed[index - 1]
        raise IllegalMove(f"there is no move number {index} (1 to {len(listed)})")
    try:
        return state.find_move(text)
    except IllegalMove as first_error:
        error = first_error
    word = text.split(" ", 1)[0]
    action = state.game.action_by_name.get(word)
    if action is not None and action.kind not in ("place", "play"):
        raise IllegalMove(not_allowed(state, action, ruleset, text))  # `pass`, `draw` typed
    for action in state.game.actions:
        found = _typed(state, action, text, ruleset)
        if found is not None:
            return found
    raise error


def _typed(state, action, text: str, ruleset):
    """The legal move of `action` that `text` names in a shorter form, None if it names
    none; IllegalMove with the reason when it names one that is not legal here."""
    legal = state.legal_moves()
    candidates = [m for m in legal if m.action == action.name]
    if action.kind == "play":
        return _typed_play(state, action, text, candidates, ruleset)
    if action.kind == "place":
        try:
            return _typed_placement(state, action, text, candidates)
        except ValueError as exc:  # read as a placement: the board kind says why not
            reason = str(exc)
            # the board kind names the part it could not read; a one-part play is all of it
            said = reason if reason.startswith(f"`{text}`: ") else f"`{text}`: {reason}"
            raise IllegalMove(said) from None
    return None


def _typed_play(state, action, text: str, candidates, ruleset):
    arg = text.split(" ", 1)[1] if text.startswith(action.name + " ") else text
    for m in candidates:
        slot, piece = m.data
        # a piece by name, or by its board position as `@N` (a bare number is the move's
        # number in the list)
        if arg.lower() in (m.arg.lower(), piece.name.lower(), f"@{slot}"):
            return m
    slot = _slot_named(state, arg)
    if slot is None:
        if any(p.name.lower() == arg.lower() for p in state.game.pieces):
            raise IllegalMove(f"`{text}`: there is no face-up {arg} on the board")
        return None
    why = getattr(state.game.model.topology, "why_not_exposed", None)
    reason = why(state.board, slot) if why is not None else None
    if reason is None:
        card = state.board.cards[slot]
        reason = f"{card.name} cannot be played now: " + guard_text(action, ruleset)
    raise IllegalMove(f"`{text}`: {reason}")


def _slot_named(state, arg: str) -> int | None:
    """The slot `@N` names, or the slot of the face-up card named `arg`; None if neither."""
    m = _SLOT.match(arg)
    if m:
        return int(m.group(1))
    cards = getattr(state.board, "cards", None) or []
    # Only face-up cards by name: a face-down one's slot is hidden information.
    up = getattr(state.board, "up", None) or [True] * len(cards)
    return next((s for s, c in enumerate(cards)
                 if c is not None and up[s] and c.name.lower() == arg.lower()), None)


def _typed_placement(state, action, text: str, candidates):
    """The legal placement typed as `text`, None if it is not one; ValueError with the
    board kind's reason when it reads as a placement that is illegal here."""
    arg = text.split(" ", 1)[1] if text.startswith(action.name + " ") else text
    for m in candidates:
        if m.arg == arg:
            return m
    try:
        first = not state.round.placed_any
        placement = state.board.parse_placement(arg, state.hands[state.to_move], first,
                                                action.rules)
    except NotImplementedError:
        return None
    found = next((m for m in candidates if m.arg == placement.text), None)
    if found is None:
        raise ValueError("not allowed by the action's own condition")
    return found


def not_allowed(state, action, ruleset, typed: str = "") -> str:
    """Why an action typed by its name (`pass`, `draw`, `exchange 3 7`) cannot be taken now."""
    legal = state.moves_of(action)
    if legal and all(not m.arg for m in legal):
        return f"`{action.name}` takes no argument here: type `{action.name}`"
    if legal:  # an action whose moves take arguments (`exchange 6 8`): this one is not legal
        return (f"`{typed or action.name}` is not one of the {len(legal)} legal `{action.name}`"
                f" moves, such as `{legal[0].text}` (`moves` lists them)")
    if action.guard is not None and not _guard_holds(state, action):
        return f"`{action.name}` is not allowed now: " + guard_text(action, ruleset)
    pool = state.game.model.zone_names.get("pool", "pool")
    if action.kind in ("draw", "deal", "exchange") and not state.pool:
        return f"`{action.name}` is not possible now: the {pool} is empty"
    return f"`{action.name}` is not possible now"


def _guard_holds(state, action) -> bool:
    try:
        return bool(action.guard.evaluate(state.context()))
    except Exception:  # a guard that cannot be read here does not hold
        return False


def guard_text(action, ruleset) -> str:
    """`the condition `pool.count <= 5` (file:line) does not hold`."""
    source = getattr(action.guard, "source", None)
    if source is None:
        return "the rules do not allow it here"
    pos = ruleset.where("actions", action.name, "if") if ruleset is not None else None
    at = f" ({pos.path}:{pos.line})" if pos is not None else ""
    return f"the condition `{' '.join(str(source).split())}`{at} does not hold"
