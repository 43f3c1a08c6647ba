"""What the play screen says when a round or the game ends: who won and why, the points
of each scoring rule, the final table; a solitaire is cleared or not."""

from __future__ import annotations

from collections import defaultdict

from engine.diagnostics import counted
from engine.cli.screen import Screen


def seat_name(seat: int, human: int = 0) -> str:
    """`P2`, or `P1 (you)` for the person's seat."""
    return f"P{seat + 1}" + (" (you)" if seat == human else "")


def reason_text(reason: str | None) -> str:
    """A round-end condition's name as words (`went_out`: `went out`)."""
    return (reason or "the end").replace("_", " ")


def round_over(screen: Screen, state, ended, events) -> None:
    """Round `ended` (its RoundInfo) is over: who won and why, and a table of the points
    each scoring rule gave each player during it."""
    if state.n == 1:
        head = f"round {ended.number} over ({reason_text(ended.reason)})"
    elif ended.winner is None:
        head = f"round {ended.number} over ({reason_text(ended.reason)}): nobody wins it"
    else:
        head = (f"round {ended.number} over: {seat_name(ended.winner)} wins it "
                f"({reason_text(ended.reason)})")
    screen.say(head, style="title")
    by_rule: dict[str, list[int]] = defaultdict(lambda: [0] * state.n)
    for e in events:
        by_rule[e.rule][e.player] += e.points
    if not by_rule:
        screen.say("  no points this round", style="note")
        return
    rows = [[rule] + [f"{p:+d}" for p in points] for rule, points in by_rule.items()]
    totals = [sum(points[s] for points in by_rule.values()) for s in range(state.n)]
    rows.append(["round total"] + [f"{t:+d}" for t in totals])
    screen.table(["rule"] + [seat_name(s) for s in range(state.n)], rows)


def game_over(screen: Screen, state) -> None:
    """The end of the match: the final scores as a table and the winner, or, alone,
    whether the board was cleared."""
    rounds = counted(state.round.number, "round")
    if state.n == 1:
        left = state.board.count
        what = _piece_word(state)
        if state.winner == 0:
            screen.say(f"game over: cleared, score {state.scores[0]} ({rounds})", style="title")
        else:
            screen.say(f"game over: not cleared, {counted(left, what)} left, score "
                       f"{state.scores[0]} ({rounds})", style="title")
        return
    winner = "nobody wins (a tie)" if state.winner is None else f"{seat_name(state.winner)} wins"
    screen.say(f"game over ({reason_text(state.round.reason)}, {rounds}): {winner}",
               style="title")
    order = sorted(range(state.n), key=lambda s: -state.scores[s])
    rows = [[seat_name(s), str(state.scores[s]), "winner" if s == state.winner else ""]
            for s in order]
    screen.table(["player", "score", ""], rows)


def _piece_word(state) -> str:
    """The pieces' own word: the component's name made singular (`cards`: `card`)."""
    names = {p.component for p in state.game.pieces}
    word = names.pop() if len(names) == 1 else "piece"
    return word[:-1] if word.endswith("s") and len(word) > 1 else word
