"""What the page offers: the shipped rulesets (title, description, sources, players),
their overlays and the agents. Only names listed here are ever loaded for the browser:
a ruleset id or overlay name that is not in the catalog is refused, so no path sent by a
browser reaches the loader."""

from __future__ import annotations

from functools import lru_cache

from engine.rules import files, load_ruleset


def _header(data: dict, key: str) -> dict:
    header = data.get(key) if isinstance(data, dict) else None
    return header if isinstance(header, dict) else {}


# The computer players the page offers: each agent of engine.players.agents, a search
# with a fixed budget small enough to answer at once (and the same way on every machine).
BUDGETS = {"mcts": "mcts:100"}


@lru_cache(maxsize=1)
def catalog() -> dict:
    """Games with their rulesets and overlays, and the agents offered (built once)."""
    from engine.players.agents import AGENTS

    games: dict[str, dict] = {}
    for rid, path in files.iter_ruleset_files():
        data = files.load_document(path).data
        head = _header(data, "ruleset")
        game = str(head.get("game", rid.split("/")[0]))
        entry = games.setdefault(game, {"name": game, "rulesets": [], "overlays": []})
        try:
            resolved = load_ruleset(rid)
        except Exception:  # a broken shipped file: lint reports it; the page leaves it out
            continue
        rhead = _header(resolved.data, "ruleset")
        players = resolved.data.get("players") or {}
        entry["rulesets"].append({
            "id": rid, "title": str(rhead.get("title", rid)),
            "description": str(rhead.get("description", "")),
            "sources": [str(s) for s in rhead.get("sources") or []],
            "default": head.get("default") is True,
            "players": {k: int(players.get(k, 1)) for k in ("min", "max", "default")
                        if isinstance(players.get(k, 1), int)},
        })
    for game, name, path in files.iter_overlay_files():
        head = _header(files.load_document(path).data, "overlay")
        if game in games:
            games[game]["overlays"].append({
                "name": name, "title": str(head.get("title", name)),
                "description": str(head.get("description", "")),
                "sources": [str(s) for s in head.get("sources") or []]})
    return {"games": sorted(games.values(), key=lambda g: g["name"]),
            "agents": sorted(BUDGETS.get(name, name) for name in AGENTS),
            "agent_info": _agent_info()}


def _agent_info() -> dict[str, str]:
    """Each offered agent's one-line summary (when the players layer gives one)."""
    from engine.players import agents

    info = getattr(agents, "AGENT_INFO", {})
    return {BUDGETS.get(name, name): str(entry.get("summary", ""))
            for name, entry in info.items()}


def check_choice(ruleset: object, overlays: object) -> tuple[str, list[str]]:
    """The ruleset id and overlay names if the catalog lists them; ValueError otherwise."""
    if not isinstance(ruleset, str):
        raise ValueError("`ruleset` must be a ruleset id such as `game/name`")
    if not isinstance(overlays, list) or not all(isinstance(o, str) for o in overlays):
        raise ValueError("`overlays` must be a list of overlay names")
    for game in catalog()["games"]:
        ids = {r["id"] for r in game["rulesets"]}
        if ruleset in ids:
            names = {o["name"] for o in game["overlays"]}
            unknown = [o for o in overlays if o not in names]
            if unknown:
                raise ValueError(f"no overlay `{unknown[0]}` for {game['name']}")
            return ruleset, list(overlays)
    raise ValueError(f"no ruleset `{ruleset[:80]}`: choose one of the listed rulesets")
