"""The `mcts` agent's spec: its parameters, their defaults and help, and the parser
(`parse_spec`) that reads `mcts:800:greedy:halving:w=1`, ... into an `MctsConfig`."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_ITERATIONS = 500
PLAYOUTS = ("random", "greedy")
OBJECTIVES = ("margin", "win")
HORIZONS = ("round", "match")
EXPANSIONS = ("random", "greedy")


@dataclass
class MctsConfig:
    """The parameters of an `mcts` agent."""

    iterations: int | None = DEFAULT_ITERATIONS  # per move (None: a time budget)
    seconds: float | None = None  # per move, instead of iterations
    playout: str = "random"
    objective: str = "margin"
    exploration: float = 0.7  # UCB1's constant, on results scaled to [0, 1]
    horizon: str = "round"
    depth: int = 0  # playout moves before the result is taken (0: to the horizon)
    widening: float = 2.0  # the root tries its best ceil(w * sqrt(visits)) moves first
    plies: int = 0  # playouts end after this many turns from the root's (0: no limit)
    held: float = 0.0  # a playout cut short (depth): each held piece's value counts against it
    lookahead: float = 0.0  # a playout cut by plies: X times the mover's best gain now counts
    leaves: bool = False  # halving: the root also tries the best move of each leave
    infer: bool = False  # halving: the other hand from a belief of its moves as greedy's
    endgame: int = -1  # halving: with this many pieces or fewer in the pool, no plies cut
    expand: str = "random"  # below the root: an untried move at random, or greedy's first
    halving: bool = False  # no tree: the root's moves by sequential halving on shared samples
    z: float = 1.0  # halving: standard errors by which a move must beat the best immediate one
    compiled: bool = True  # halving: play out on the ruleset's program when it has one
    auto: bool = False  # a budget at most was given: the rest is chosen by cost (`tuning`)
    budget_given: bool = False  # the spec named a budget (iterations or seconds)


PARAMETERS = [
    {"name": "budget", "values": "N (iterations) or Xs (seconds)",
     "default": f"{DEFAULT_ITERATIONS}", "help": "search per move: iterations, or time (alone: the rest chosen by cost)"},
    {"name": "playout", "values": "|".join(PLAYOUTS), "default": "random",
     "help": "how a sampled game is played out after the tree"},
    {"name": "objective", "values": "|".join(OBJECTIVES), "default": "margin",
     "help": "own final score margin (alone: the score), or the win rate"},
    {"name": "c", "values": "X (c=0.7)", "default": "0.7", "help": "UCB1 exploration"},
    {"name": "horizon", "values": "|".join(HORIZONS), "default": "round",
     "help": "where a playout stops and is scored (horizon=match)"},
    {"name": "depth", "values": "N (depth=4)", "default": "0",
     "help": "playout moves before scoring (0: to the horizon)"},
    {"name": "w", "values": "X (w=2)", "default": "2",
     "help": "root widening: the best ceil(w*sqrt(visits)) moves by immediate score"},
    {"name": "expand", "values": "|".join(EXPANSIONS), "default": "random",
     "help": "below the root, the move added: untried at random, or best immediate score"
             " first (widened as the root is)"},
    {"name": "halving", "values": "halving", "default": "off",
     "help": "no tree: the root's best moves compared by sequential halving, every move"
             " played out in the same samples"},
    {"name": "z", "values": "X (z=1)", "default": "1",
     "help": "halving: how many standard errors a move must beat the best immediate"
             " one by, on the same samples, to be played instead"},
    {"name": "plies", "values": "N (plies=2)", "default": "0",
     "help": "playouts stop once the seat to move changed N times from the searching"
             " seat's turn (plies=2: its move and the reply; an extra turn is one)"},
    {"name": "held", "values": "X (held=1)", "default": "0",
     "help": "a playout cut by depth: X times each seat's hand value counts against it"},
    {"name": "next", "values": "X (next=0.5)", "default": "0",
     "help": "a playout cut by plies: X times the most the seat to move could score"
             " with one move then counts for it (what its hand is worth there)"},
    {"name": "infer", "values": "infer", "default": "off",
     "help": "halving, two seats: the other hand is sampled from a belief kept over"
             " the match, each hand weighed by whether a greedy player holding it made"
             " the opponent's moves"},
    {"name": "endgame", "values": "N (endgame=6)", "default": "off",
     "help": "halving: once the pool holds N pieces or fewer, play-outs go to the horizon"
             " (no `plies` cut: the end is near and cheap to play out)"},
    {"name": "leaves", "values": "leaves", "default": "off",
     "help": "halving: the root also tries, for each set of pieces a move keeps in hand,"
             " the best move that keeps it"},
    {"name": "interpreter", "values": "interpreter", "default": "off",
     "help": "halving: play out on the interpreter even where the ruleset has a compiled"
             " program (the same moves, slower)"},
]


_FLAGS = {"halving": ("halving", True), "interpreter": ("compiled", False),
          "leaves": ("leaves", True), "infer": ("infer", True)}  # word: field, value


def parse_spec(params: str) -> MctsConfig:
    """The parameters after `mcts:` (`800`, `0.5s:greedy`, ...); ValueError if one is bad."""
    config = MctsConfig()
    parts = [p.strip() for p in params.split(":") if p.strip()]
    for part in parts:
        low = part.lower()
        if low in PLAYOUTS:
            config.playout = low
        elif low in _FLAGS:
            setattr(config, *_FLAGS[low])
        elif low in OBJECTIVES:
            config.objective = low
        elif _set_number(config, part, low):
            pass
        elif low.startswith("expand="):
            if low[7:] not in EXPANSIONS:
                raise ValueError(f"mcts: `{part}`: expand is one of {', '.join(EXPANSIONS)}")
            config.expand = low[7:]
        elif low.startswith("horizon="):
            if low[8:] not in HORIZONS:
                raise ValueError(f"mcts: `{part}`: horizon is one of {', '.join(HORIZONS)}")
            config.horizon = low[8:]
        elif low.endswith("s"):
            config.seconds, config.iterations = _number(part, part[:-1], float), None
        else:
            config.iterations, config.seconds = _number(part, part, int), None
    config.budget_given = any(_is_budget(p) for p in parts)
    # nothing but a budget (and where to play out): tuned
    config.auto = all(_is_budget(p) or p.lower() == "interpreter" for p in parts)
    return config


#: a `name=X` parameter: (its field, its kind, whether 0 is allowed)
_NUMBERS = {"c": ("exploration", float, False), "w": ("widening", float, False),
            "depth": ("depth", int, False), "plies": ("plies", int, False),
            "z": ("z", float, True), "held": ("held", float, True),
            "next": ("lookahead", float, True), "endgame": ("endgame", int, True)}


def _set_number(config: MctsConfig, part: str, low: str) -> bool:
    """Set the field of a `name=X` number parameter; False if `part` is none."""
    name, equals, text = low.partition("=")
    if not equals or name not in _NUMBERS:
        return False
    field, kind, zero = _NUMBERS[name]
    setattr(config, field, _number(part, part[len(name) + 1:], kind, zero=zero))
    return True


def _is_budget(part: str) -> bool:
    return part.replace(".", "", 1).rstrip("sS").isdigit()


def _number(part: str, text: str, kind, zero: bool = False):
    try:
        value = kind(text)
    except ValueError:
        value = -1
    if value < 0 or (value == 0 and not zero):
        named = ", ".join(list(_FLAGS) + [f"{name}={'N' if field[1] is int else 'X'}"
                                          for name, field in _NUMBERS.items()])
        raise ValueError(f"mcts: `{part}` is not a budget (800, 0.5s), a playout"
                         f" ({', '.join(PLAYOUTS)}), an objective ({', '.join(OBJECTIVES)}),"
                         f" {named}, expand={'|'.join(EXPANSIONS)} or"
                         f" horizon={'|'.join(HORIZONS)}")
    return value
