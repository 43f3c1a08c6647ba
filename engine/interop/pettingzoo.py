"""Every ruleset as a PettingZoo AEC environment, and solitaires as Gymnasium
environments (the `rl` extra).

    from engine.interop.pettingzoo import env, solitaire_env
    aec = env("<game>/<variant>", overlays=["<overlay>"], players=3)
    single = solitaire_env("<a one-player ruleset>")

Agents are `seat_0` ... (seats from 0, as everywhere). An action is an index into the
position's legal moves in the kernel's fixed order (`Discrete(max_actions)`, the
`action_mask` marking the first `len(legal_moves)`); `infos[agent]["moves"]` gives their
texts. The observation is `{"observation": vector, "action_mask": mask}` (the vector is
`engine.interop.views.observation`); rewards are the points each seat scored by the step.
"""

from __future__ import annotations

from typing import Sequence

from engine.extras import require
from engine.interop.views import load_game, observation, observation_size

gymnasium = require("gymnasium", "rl", "engine.interop.pettingzoo")
pettingzoo = require("pettingzoo", "rl", "engine.interop.pettingzoo")
np = require("numpy", "rl", "engine.interop.pettingzoo")
spaces = gymnasium.spaces

MAX_ACTIONS = 512  # legal moves per position at most (the shipped games have under 100)
BOUND = 1e6  # observations are counts and scores: well inside it


def _spaces(game, players: int, max_actions: int):
    size = observation_size(game, players)
    obs = spaces.Dict({
        "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
        "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
    })
    return obs, spaces.Discrete(max_actions)


def _mask(state, max_actions: int):
    legal = state.legal_moves() if not state.is_over else []
    if len(legal) > max_actions:
        raise RuntimeError(f"{len(legal)} legal moves, more than max_actions={max_actions};"
                           " make the environment with a larger max_actions")
    mask = np.zeros(max_actions, np.int8)
    mask[:len(legal)] = 1
    return mask, [m.text for m in legal]


class RulecraftAEC(pettingzoo.AECEnv):
    """A ruleset as an AEC environment: one agent per seat, the seat to move selected."""

    metadata = {"name": "rulecraft_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset: str, overlays: Sequence[str] = (), players: int | None = None,
                 max_actions: int = MAX_ACTIONS, render_mode: str | None = None):
        super().__init__()
        self.game = load_game(ruleset, tuple(overlays))
        model = self.game.model
        self.players = players or model.players_default
        if not model.players_min <= self.players <= model.players_max:
            raise ValueError(f"{model.id} is for {model.players_min}-{model.players_max}"
                             f" players, not {self.players}")
        self.max_actions, self.render_mode = max_actions, render_mode
        self.possible_agents = [f"seat_{s}" for s in range(self.players)]
        obs, act = _spaces(self.game, self.players, max_actions)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.state_ = None
        self._next_seed = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options=None):
        """A new match dealt from `seed` (default: the next of 0, 1, 2, ...)."""
        if seed is None:
            seed, self._next_seed = self._next_seed, self._next_seed + 1
        self.state_ = self.game.new_game(self.players, seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        state = self.state_
        self.agent_selection = self.possible_agents[state.to_move]
        _, moves = _mask(state, self.max_actions)
        for agent in self.agents:
            self.infos[agent] = {"moves": moves if agent == self.agent_selection else []}

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask, _ = _mask(self.state_, self.max_actions)
        if seat != self.state_.to_move:
            mask[:] = 0
        return {"observation": observation(self.state_, seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.state_.legal_moves()
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"action {action}: not one of the {len(legal)} legal moves")
        before = list(self.state_.scores)
        self.state_.apply(legal[int(action)])
        self._cumulative_rewards[agent] = 0
        for s, a in enumerate(self.possible_agents):
            self.rewards[a] = self.state_.scores[s] - before[s]
        if self.state_.is_over:
            self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._select()

    def render(self):
        if self.render_mode == "ansi":
            return self.game.model.topology.render_text(self.state_.board)
        return None

    def close(self):
        pass


def env(ruleset: str, overlays: Sequence[str] = (), players: int | None = None,
        max_actions: int = MAX_ACTIONS, render_mode: str | None = None) -> RulecraftAEC:
    """The AEC environment of a ruleset with overlays."""
    return RulecraftAEC(ruleset, overlays, players, max_actions, render_mode)


class SolitaireEnv(gymnasium.Env):
    """A one-player ruleset as a Gymnasium environment. An action outside the legal
    moves does nothing (reward 0, `info["illegal"]`): Gymnasium samples any action."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str, overlays: Sequence[str] = (),
                 max_actions: int = MAX_ACTIONS, render_mode: str | None = None):
        self.game = load_game(ruleset, tuple(overlays))
        if self.game.model.players_min > 1:
            raise ValueError(f"{self.game.model.id} is not a solitaire; use env(...)")
        self.max_actions, self.render_mode = max_actions, render_mode
        self.observation_space, self.action_space = _spaces(self.game, 1, max_actions)
        self.state_ = None

    def _obs(self):
        mask, moves = _mask(self.state_, self.max_actions)
        return {"observation": observation(self.state_, 0), "action_mask": mask}, {"moves": moves}

    def reset(self, seed: int | None = None, options=None):
        """A new deal: from `seed`, or from the environment's own generator."""
        super().reset(seed=seed)
        deal_seed = seed if seed is not None else int(self.np_random.integers(1 << 31))
        self.state_ = self.game.new_game(1, deal_seed)
        return self._obs()

    def step(self, action):
        legal = self.state_.legal_moves()
        before = self.state_.scores[0]
        illegal = not 0 <= int(action) < len(legal)
        if not illegal:
            self.state_.apply(legal[int(action)])
        obs, info = self._obs()
        info["illegal"] = illegal
        return obs, float(self.state_.scores[0] - before), self.state_.is_over, False, info

    def render(self):
        if self.render_mode == "ansi":
            return self.game.model.topology.render_text(self.state_.board)
        return None


def solitaire_env(ruleset: str, overlays: Sequence[str] = (), max_actions: int = MAX_ACTIONS,
                  render_mode: str | None = None) -> SolitaireEnv:
    """The Gymnasium environment of a one-player ruleset."""
    return SolitaireEnv(ruleset, overlays, max_actions, render_mode)
