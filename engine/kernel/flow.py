"""Turn, round and match flow: what `State.apply` does, and how rounds start and end.

Order of one move (documented in docs/api.md):
1. the action's effect (place, draw, exchange, pass, play, deal);
2. its `then:` counter updates, all evaluated before any is assigned;
3. the scoring rules `on:` that action, in the order written (they see the new counters);
4. if the action ends the turn: refill the hand, update the round counters, pass the
   turn (or give an extra turn), then check the round-end conditions in order.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from engine.expr import EvaluationError
from engine.kernel.chance import insert_at_random, shuffle
from engine.kernel.general_move import apply_general_move
from engine.kernel.moves import RuleFailure, ScoreEvent, make_event
from engine.kernel.state import State, move_view, split_named
from engine.kernel.views import RoundInfo, TurnInfo, make_context
from engine.kernel.zones import deal_to_zone, new_zones

if TYPE_CHECKING:  # pragma: no cover
    from engine.kernel.moves import Move


def apply_move(state: "State", move: "Move") -> list[ScoreEvent]:
    """Apply a move already known to be legal; returns the score events it caused."""
    game = state.game
    action = game.action_by_name[move.action]
    turn = state.turn
    if turn.actions == 0 and game.tracks_unable:
        turn.could_place = any(state.moves_of(a) for a in game.place_actions)
    mover = state.to_move
    view = move_view(state, action, move) if action.reads_move else None
    events = state.events
    start = len(events)
    action.effect(state, action, move)
    turn.actions += 1
    state._invalidate()
    # An action with no `then`, scoring rule or `extra_turn` (often a draw or a pass)
    # evaluates nothing after its effect: no context is made for it.
    if action.then or action.scoring or action.extra_turn is not None:
        extra = _after_effect(state, action, view, mover)
    else:
        extra = False
    if action.ends_turn:
        end_turn(state, action, mover, extra)
    else:
        settle(state, mover)
    log_move(state, move)
    return events[start:]


def log_move(state: "State", move: "Move") -> None:
    """Log a move applied, with the chance outcomes it caused and the scores after it.
    A move without chance outcomes (most) logs an empty tuple: no new list each time
    (`State.history` writes it out as an empty list)."""
    chances = state.pending_chances
    if chances:
        state.pending_chances = []
    else:
        chances = ()
    state.log.append((move, chances, state.scores[:]))


def _after_effect(state: "State", action, view, mover: int) -> bool:
    """Steps 2 and 3 of a move (its `then:` updates, its scoring rules) in one context;
    returns whether `extra_turn` gives the mover another turn."""
    ctx = make_context(state, mover)
    if view is not None:
        ctx["move"] = view
        aliases = action.move_aliases
        if aliases:
            pieces = view.pieces
            if pieces:
                for alias in aliases:
                    ctx[alias] = pieces[0]
    try:
        if action.then:
            values = [(name, int(expr.evaluate(ctx))) for name, expr in action.then]
            for name, value in values:
                setattr(state.counters, name, value)
        if action.scoring_mover_only:
            _score_mover(state, action.scoring, mover, ctx)
        elif action.scoring:
            score_trigger(state, action.name, mover, ctx)
        return bool(action.extra_turn is not None and action.extra_turn.evaluate(ctx))
    except EvaluationError as exc:
        raise RuleFailure(f"action `{action.name}` (its `then` or `extra_turn`)", action.pos,
                          exc) from exc


def _place(state, action, move) -> None:
    placement = move.data
    hand = state.hands[state.to_move]
    for piece in placement.pieces:
        take(hand, piece)
    state.board.apply_placement(placement)
    state.turn.placed += len(placement.pieces)
    state.round.placed_any = True


def take(hand: list, piece) -> None:
    """Remove `piece` from `hand`, found by identity: `list.remove` would compare it with
    every piece before it (a dataclass comparison each); pieces are distinct objects."""
    for i, held in enumerate(hand):
        if held is piece:
            del hand[i]
            return
    hand.remove(piece)  # an equal piece, or the same ValueError as before


def _draw(state, action, move) -> None:
    state.hands[state.to_move].append(state.pool.pop())
    state.turn.draws += 1


def _exchange(state, action, move) -> None:
    hand = state.hands[state.to_move]
    returned, hand[:] = split_named(hand, move.data)  # (`take` of each returned piece)
    mix_into_pool(state, returned)
    pool = state.pool
    for _ in returned:
        hand.append(pool.pop())


def _pass(state, action, move) -> None:
    pass


def _play(state, action, move) -> None:
    slot, _ = move.data
    state.pile.append(state.board.remove(slot))


def _deal(state, action, move) -> None:
    state.pile.append(state.pool.pop())


EFFECTS = {
    "place": _place, "draw": _draw, "exchange": _exchange, "pass": _pass,
    "play": _play, "deal": _deal, "move": apply_general_move,
}


_UID = attrgetter("uid")


def shuffled(state: "State", pieces: list) -> list:
    """`pieces` in a random order (first = dealt or drawn first); the order is recorded.

    When the state replays a record, the recorded order is used instead, after checking
    that it holds exactly these pieces.
    """
    if state.forced_chances:
        uids = state.forced_chances.pop(0)
        by_uid = {p.uid: p for p in pieces}
        if sorted(uids) != sorted(by_uid):
            raise ValueError("a recorded chance outcome does not hold the pieces being shuffled")
        order = [by_uid[u] for u in uids]
    else:
        order = sorted(pieces, key=_UID)  # the input order never leaks into the outcome
        shuffle(state.random(), order)
    state.pending_chances.append(list(map(_UID, order)))
    return order


def mix_into_pool(state: "State", returned: list) -> None:
    """Put `returned` back into the pool at random places; the pool's new order (first
    drawn first) is recorded. The pool's order is random already, so each piece goes in
    at a random place (`insert_at_random`), not reshuffling the whole. When the state
    replays a record, the recorded order is used instead, as `shuffled` does.

    The order is kept as a tuple of the pool's pieces, as the pool holds them (last
    drawn first): one copy, where the uids in drawing order cost a call per piece on
    every exchange; `State.history` writes it out as uids, first drawn first, when a
    record or a replay asks (see `chance_uids`)."""
    if state.forced_chances:
        state.pool = list(reversed(shuffled(state, state.pool + returned)))
        return
    pool = state.pool  # the state's own list (a clone copies it)
    # (`state.random()`, without the call when no clone shares the generator)
    insert_at_random(state.random() if state._rng_shared else state.rng, pool, returned)
    state.pending_chances.append(tuple(pool))


def refill(state: "State", seat: int) -> None:
    """Draw up to the hand size, or as many as the pool still holds."""
    size = state.game.model.hand_size_for(state.n)
    hand, pool = state.hands[seat], state.pool
    while len(hand) < size and pool:
        hand.append(pool.pop())


def end_turn(state: "State", action, mover: int, extra: bool) -> None:
    """Close the mover's turn, pass the turn on, and check the round-end conditions."""
    model = state.game.model
    r, t = state.round, state.turn
    r.turns += 1
    state.turns_total += 1
    r.turns_without_place = 0 if t.placed else r.turns_without_place + 1
    r.passes_in_row = r.passes_in_row + 1 if action.kind == "pass" else 0
    r.unable_in_row = 0 if t.could_place else r.unable_in_row + 1
    if model.refill:
        refill(state, mover)
    t.reset()
    state.to_move = mover if extra else (mover + 1) % state.n
    state._invalidate()
    # Alone, or on an extra turn, the mover is also the next to move: one context serves
    # the round-end conditions and the next move generation.
    ctx = state._decision_context() if state.to_move == mover else make_context(state, mover)
    for cond in model.round_end:
        try:
            ended = cond.cond.evaluate(ctx)
        except EvaluationError as exc:
            raise RuleFailure(f"round-end condition `{cond.name}`", cond.pos, exc) from exc
        if ended:
            end_round(state, cond.name, choose_winner(state, cond.winner, mover), mover)
            return
    if r.turns >= model.max_turns_per_round:
        end_round(state, "turn_limit", None, mover)
        return
    settle(state, mover)


def settle(state: "State", mover: int) -> None:
    """End the round if the player to move has no legal move at all (`stalled`).

    A preview (a copy made only to see what one move scores) skips this check: it would
    generate the next player's moves, which a preview never uses."""
    if not state.is_over and not state.previewing and not state.legal_moves():
        end_round(state, "stalled", None, mover)


def choose_winner(state: "State", spec, mover: int | None) -> int | None:
    """Apply a winner spec: the mover, or the single best player by the keys; a tie: none.

    `default` (a match without `winner:`): the best score by `match.objective` (highest
    unless it says lowest), or, alone, the player wins if they won the last round (a
    solitaire is won by clearing, not by scoring)."""
    if spec.mode == "default":
        if state.n == 1:
            return state.last_round_winner
        return choose_winner(state, type(spec)(state.game.model.objective, ()), mover)
    if spec.mode == "mover":
        return mover
    if spec.mode not in ("lowest", "highest"):
        return None
    keyed = []
    for seat in range(state.n):
        ctx = make_context(state, seat, mover if mover is not None else seat)
        if spec.keys:
            key = tuple(int(k.evaluate(ctx)) for k in spec.keys)
        else:
            key = (state.scores[seat],)
        keyed.append((key, seat))
    best = (min if spec.mode == "lowest" else max)(k for k, _ in keyed)
    seats = [seat for k, seat in keyed if k == best]
    return seats[0] if len(seats) == 1 else None


def end_round(state: "State", reason: str, winner: int | None, mover: int) -> None:
    """Score the round's end, then end the match or deal the next round.

    A loop, not recursion: a new round in which nobody can move ends at once
    (`stalled`), and `limits.max_rounds` bounds how often that can happen.
    """
    model = state.game.model
    while True:
        r = state.round
        r.reason = reason
        r.winner = winner
        score_trigger(state, "round_end", mover, None)
        state.last_round_winner = winner
        ctx = make_context(state, winner if winner is not None else mover, mover)
        if (
            model.match_end is None
            or r.number >= model.max_rounds
            or bool(model.match_end.evaluate(ctx))
        ):
            state.is_over = True
            state.winner = choose_winner(state, model.match_winner, winner)
            state._invalidate()
            return
        start_round(state, r.number + 1)
        if state.previewing or state.legal_moves():
            return
        reason, winner, mover = "stalled", None, state.to_move


def start_round(state: "State", number: int, deal: list | None = None) -> None:
    """Gather every piece, shuffle, deal hands and `setup.deal`, choose the opener, and
    fire the `round_start` scoring rules."""
    game = state.game
    model = game.model
    if state.round.number:  # (round 0: a state just made, whose board is new already)
        state.board = model.topology.new_board()
    state.round = RoundInfo(number)
    state.turn = TurnInfo()
    for name, value in model.counters.items():
        setattr(state.counters, name, value)
    state._rebind()
    if deal is not None:
        order = list(deal)
        state.pending_chances.append(list(map(_UID, order)))
    else:
        order = shuffled(state, list(game.pieces))
    state.pool = list(reversed(order))
    state.pile = []
    if model.zones is not None and model.zones.extra():
        new_zones(state)
    size = model.hand_size_for(state.n)
    for seat in range(state.n):
        state.hands[seat] = _pop_many(state.pool, size)
    for to, count in model.deal:
        if to != "board" and to != "pile":  # a deal into zones (count: the ZoneDeal)
            deal_to_zone(state, count, lambda k: _pop_many(state.pool, k))
            continue
        dealt = _pop_many(state.pool, count if count is not None else state.board.capacity())
        if to == "board":
            state.board.deal(dealt)
        else:
            state.pile.extend(dealt)
    choose_opener(state)
    state._invalidate()
    score_trigger(state, "round_start", state.to_move, None)
    state._invalidate()


def _pop_many(pool: list, count: int) -> list:
    """`[pool.pop() for _ in range(count)]` (as many as there are), in one slice."""
    cut = max(len(pool) - count, 0)
    taken = pool[cut:]
    del pool[cut:]
    taken.reverse()
    return taken


def choose_opener(state: "State") -> None:
    """The opening rule: the holder of the best piece by rank opens with it (or an allowed
    alternative); without one, seats take turns opening rounds."""
    opening = state.game.model.opening
    state.opening_pieces = None
    state.to_move = (state.round.number - 1) % state.n
    if opening is None:
        return
    best, ranks = None, state.game.opening_ranks  # (by uid, when known beforehand)
    for seat in range(state.n):
        rank_of = None if ranks is not None else _rank_of(state, seat, opening.rank)
        for piece in state.hands[seat]:
            key = ranks[piece.uid] if ranks is not None else rank_of(piece)
            if best is None or key > best[0] or (key == best[0] and piece.uid < best[2].uid):
                best = (key, seat, piece)
    if best is None:
        return
    _, seat, piece = best
    allowed = {piece.uid}
    also = state.game.opening_also
    if also is not None:  # compiled: it reads the piece alone
        allowed.update(other.uid for other in state.hands[seat] if also(other)[0])
    elif opening.also is not None:
        ctx = make_context(state, seat)
        for other in state.hands[seat]:
            ctx["tile"] = ctx["card"] = ctx["token"] = ctx["piece"] = other
            if opening.also.evaluate(ctx):
                allowed.add(other.uid)
    state.to_move = seat
    state.opening_pieces = frozenset(allowed)


def _rank_of(state: "State", seat: int, rank):
    """The opening rank of one of `seat`'s pieces, as a function of the piece: the
    compiled one when the rank reads the piece alone, else evaluated in one context for
    the seat (only the piece names change between its pieces, and those are set each
    time: a context never keeps them; see `Context`)."""
    compiled = state.game.opening_key
    if compiled is not None:
        return compiled
    ctx = make_context(state, seat)

    def key(piece) -> tuple:
        ctx["tile"] = ctx["card"] = ctx["token"] = ctx["piece"] = piece
        return tuple([int(k.evaluate(ctx)) for k in rank])
    return key


def receivers(state: "State", to: str, mover: int) -> list[int]:
    if to == "mover":
        return [mover]
    winner = state.round.winner
    if to == "winner":
        return [] if winner is None else [winner]
    if to == "losers":
        return [] if winner is None else [s for s in range(state.n) if s != winner]
    return list(range(state.n))


def score_trigger(state: "State", trigger: str, mover: int, ctx) -> None:
    """Fire the scoring rules on `trigger`; each nonzero result is a ScoreEvent."""
    rules = state.game.rules_on.get(trigger)
    if not rules:
        return
    if ctx is not None and state.game.mover_only.get(trigger):
        _score_mover(state, rules, mover, ctx)
        return
    contexts = {mover: ctx} if ctx is not None else {}
    move = ctx.get("move") if ctx is not None else None
    piece = ctx.get("tile") if ctx is not None else None
    for rule in rules:
        for seat in receivers(state, rule.to, mover):
            c = contexts.get(seat)
            if c is None:
                c = contexts[seat] = make_context(state, seat, mover)
                if move is not None:
                    c["move"] = move
                    c["tile"] = c["card"] = c["token"] = c["piece"] = piece
            try:
                if rule.guard is not None and not rule.guard.evaluate(c):
                    continue
                points = int(rule.points.evaluate(c))
            except EvaluationError as exc:
                raise RuleFailure(f"scoring rule `{rule.name}`", rule.pos, exc) from exc
            if points:
                state.scores[seat] += points
                state.events.append(make_event(seat, points, rule.name, rule.pos, rule.label))


def _score_mover(state: "State", rules, mover: int, ctx) -> None:
    """The common case, every rule paying the mover: one context, no receiver lists."""
    scores, events = state.scores, state.events
    for rule in rules:
        guard = rule.guard
        try:
            if guard is not None and not guard.evaluate(ctx):
                continue
            points = int(rule.points.evaluate(ctx))
        except EvaluationError as exc:
            raise RuleFailure(f"scoring rule `{rule.name}`", rule.pos, exc) from exc
        if points:
            scores[mover] += points
            events.append(make_event(mover, points, rule.name, rule.pos, rule.label))

