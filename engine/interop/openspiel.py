"""Every ruleset as an OpenSpiel game (the `openspiel` extra).

    import pyspiel
    import engine.interop.openspiel  # registers "rulecraft"
    game = pyspiel.load_game("rulecraft", {"ruleset": "<game>/<variant>",
                                           "with": "<overlay>,<overlay>", "players": 3})

Chance is explicit: every shuffle (a round's deal, the pool after an exchange) is a run
of chance nodes, one per piece (`engine.interop.views.Match`);
a move's action is `move_code(move.text)` (docs/interop.md); `returns()` are the final
scores (terminal rewards, as OpenSpiel's MCTS requires). Information states hide other hands, the
pool's order, face-down pieces and the deal.
"""

from __future__ import annotations

from engine.extras import require
from engine.interop.views import CODE_BITS, Match, coded_moves, load_game, seat_view, split_overlays

pyspiel = require("pyspiel", "openspiel", "engine.interop.openspiel")

SHORT_NAME = "rulecraft"
MAX_PLAYERS = 8
# Scores have no bound a ruleset states; these are wide enough for every shipped game.
MIN_UTILITY, MAX_UTILITY = -100_000.0, 100_000.0
PARAMETERS = {"ruleset": "", "with": "", "players": 0}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Rulecraft ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,  # OpenSpiel's MCTS requires it
    max_num_players=MAX_PLAYERS,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=PARAMETERS,
)


class RulecraftGame(pyspiel.Game):
    """A ruleset (`ruleset`, overlays `with` as "a,b", `players`: 0 for its default)."""

    def __init__(self, params=None):
        params = {**PARAMETERS, **(params or {})}
        self.ruleset = str(params["ruleset"])
        if not self.ruleset:
            raise ValueError("the rulecraft game needs a `ruleset` parameter (an id, a game"
                             " name or a file)")
        self.overlays = split_overlays(str(params["with"]))
        kernel = load_game(self.ruleset, self.overlays)
        model = kernel.model
        self.players = int(params["players"]) or model.players_default
        if not model.players_min <= self.players <= model.players_max:
            raise ValueError(f"{model.id} is for {model.players_min}-{model.players_max}"
                             f" players, not {self.players}")
        self.pieces = len(kernel.pieces)
        super().__init__(GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=(1 << CODE_BITS) - 1,
            max_chance_outcomes=self.pieces,
            num_players=self.players,
            min_utility=MIN_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=None,
            max_game_length=self.pieces + 1 + 100_000,
        ), params)

    def new_initial_state(self):
        return RulecraftState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SeatObserver(iig_obs_type)


class RulecraftState(pyspiel.State):
    """A match: chance nodes while dealing, then the players' moves."""

    def __init__(self, game: RulecraftGame):
        super().__init__(game)
        self.match = Match(game.ruleset, game.overlays, game.players)

    def current_player(self):
        match = self.match
        if match.dealing:
            return pyspiel.PlayerId.CHANCE
        if match.state.is_over:
            return pyspiel.PlayerId.TERMINAL
        return match.state.to_move

    def _legal_actions(self, player):
        if self.match.dealing or self.match.state.is_over or player != self.match.state.to_move:
            return []
        return list(coded_moves(self.match.state))

    def chance_outcomes(self):
        return self.match.chance_outcomes()

    def _apply_action(self, action):
        match = self.match
        if match.dealing:
            match.apply_chance(int(action))
        else:
            match.play(coded_moves(match.state)[int(action)])

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return self.match.chance_text(int(action))
        move = coded_moves(self.match.state).get(int(action)) if not self.match.dealing else None
        return move.text if move is not None else f"move {action}"

    def is_terminal(self):
        return not self.match.dealing and self.match.state.is_over

    def rewards(self):
        return self.returns()  # terminal rewards: the whole return, once, at the end

    def returns(self):
        """The final scores (0 before the end: rewards come at the end only)."""
        if not self.is_terminal():
            return [0.0] * self.match.players
        return [float(x) for x in self.match.scores()]

    def information_state_string(self, player=None):
        return seat_view(self.match, self.current_player() if player is None else player)

    def observation_string(self, player=None):
        return seat_view(self.match, self.current_player() if player is None else player,
                         with_history=False)

    def __str__(self):
        match = self.match
        if match.dealing:
            return f"chance: {len(match.partial)} of {len(match.pending[0])} pieces ordered"
        hands = " | ".join(" ".join(p.name for p in h) for h in match.state.hands)
        return f"{seat_view(match, match.state.to_move)}\nhands: {hands}"


class SeatObserver:
    """Observations as strings (no tensors): a seat's view, with or without history."""

    def __init__(self, iig_obs_type=None):
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return seat_view(state.match, player, with_history=self.perfect_recall)


pyspiel.register_game(GAME_TYPE, RulecraftGame)


def load(ruleset: str, overlays=(), players: int = 0):
    """`pyspiel.load_game` of a ruleset: the game object OpenSpiel's algorithms take."""
    return pyspiel.load_game(SHORT_NAME, {"ruleset": ruleset, "with": ",".join(overlays),
                                          "players": players})
