"""The JSON API of `rulecraft serve`, in process (Starlette's TestClient): games apart by
unguessable ids, moves and their points by rule, undo, restart, records in and out, the
solver, and a 4xx with a message for every bad request."""

from __future__ import annotations

import json
import warnings

import pytest
from typer.testing import CliRunner

warnings.filterwarnings("ignore", message=".*httpx.*")
from starlette.testclient import TestClient  # noqa: E402

from engine.cli import app as cli  # noqa: E402
from engine.web.app import create_app  # noqa: E402
from engine.web.records import MAX_RECORD_BYTES  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def start(client, ruleset="triominos/pressman", seats=("human", "greedy"), seed=1, overlays=()):
    got = client.post("/api/games", json={"ruleset": ruleset, "overlays": list(overlays),
                                          "seats": list(seats), "seed": seed})
    assert got.status_code == 200, got.text
    return got.json()


def test_the_catalog_lists_games_rulesets_overlays_and_agents(client):
    data = client.get("/api/catalog").json()
    games = {g["name"]: g for g in data["games"]}
    assert set(games) >= {"triominos", "triolet", "tripeaks"}
    pressman = next(r for r in games["triominos"]["rulesets"] if r["id"] == "triominos/pressman")
    assert pressman["title"] and pressman["description"] and pressman["sources"]
    assert "three-vertex" in {o["name"] for o in games["triominos"]["overlays"]}
    assert {"greedy", "random"} <= set(data["agents"])


def test_a_move_its_points_by_rule_and_the_computer_reply(client):
    view = start(client)
    assert view["your_turn"] and view["scores"] == [0, 0]
    best = view["moves"][0]
    # Fact sheet (Pressman): the opener lays 5-5-5 (the highest triple): its value 15
    # plus the 10 bonus for opening with a triple = 25.
    assert best["text"] == "place 5-5-5@0,0r0" and best["points"] == 25
    assert {(e["rule"], e["points"]) for e in best["events"]} == {("tile_value", 15),
                                                                  ("opening_triple", 10)}
    assert all(e["where"].startswith("rulesets/triominos/pressman.yaml:") for e in best["events"])
    after = client.post(f"/api/games/{view['id']}/move", json={"move": best["text"]}).json()
    assert len(after["recent"]) >= 1 and after["log"][1]["computer"]
    for seat in (0, 1):  # the scores are the sums of the logged events
        assert after["scores"][seat] == sum(e["points"] for p in after["log"]
                                            for e in p["events"] if e["player"] == seat)


def test_the_search_agent_answers_with_its_offered_budget(client):
    agents = client.get("/api/catalog").json()["agents"]
    search = next(a for a in agents if a.startswith("mcts"))
    view = start(client, seats=["human", search], seed=1)
    after = client.post(f"/api/games/{view['id']}/move", json={"move": view["moves"][0]["text"]})
    assert after.status_code == 200 and after.json()["log"][-1]["computer"]


def test_the_hint_with_others_names_the_searchs_move_the_same_each_time(client):
    view = start(client, "triolet/standard", seed=2)
    legal = {m["text"] for m in view["moves"]}
    hint = client.get(f"/api/games/{view['id']}/hint").json()
    assert hint["search"]["spec"] == "mcts:400" and "solver" not in hint
    moves = hint["search"]["moves"]
    assert moves and all(m["text"] in legal and 0 < m["share"] <= 1 for m in moves)
    assert sum(m["share"] for m in moves) <= 1.0 + 1e-9
    assert client.get(f"/api/games/{view['id']}/hint").json() == hint  # seeded: a position hints alike


def test_the_other_players_hand_is_not_in_the_picture(client):
    view = start(client, seed=4)
    hands = view["zones"]["hands"]
    assert hands[0] + hands[1] in (18, 17)  # 9 tiles each for two players, one maybe laid
    assert view["svg"].count('class="piece hand back"') == hands[1]  # P2's, no names
    assert view["svg"].count('class="piece hand"') == hands[0]  # P1's own, face up


def test_undo_and_restart_give_the_same_position_again(client):
    view = start(client, seed=2)
    first = [m["text"] for m in view["moves"]]
    gid = view["id"]
    client.post(f"/api/games/{gid}/move", json={"move": first[0]})
    undone = client.post(f"/api/games/{gid}/undo").json()
    # back to where the human first moved (with the computer's opening, if it opened)
    assert undone["log"] == view["log"] and undone["scores"] == view["scores"]
    assert [m["text"] for m in undone["moves"]] == first
    record = json.loads(client.get(f"/api/games/{gid}/record").text)
    taken = record["undone"][0]
    assert taken["after"] == len(view["log"]) and taken["moves"][0]["move"] == first[0]
    client.post(f"/api/games/{gid}/move", json={"move": first[-1]})
    again = client.post(f"/api/games/{gid}/restart").json()
    assert [m["text"] for m in again["moves"]] == first and again["log"] == view["log"]
    assert client.post(f"/api/games/{gid}/undo").status_code == 400  # nothing to take back


def test_games_are_kept_apart(client):
    one, two = start(client, seed=3), start(client, seed=3)
    assert one["id"] != two["id"] and len(one["id"]) >= 20
    client.post(f"/api/games/{one['id']}/move", json={"move": one["moves"][0]["text"]})
    assert client.get(f"/api/games/{two['id']}").json()["log"] == two["log"]


def test_a_typed_play_in_the_board_notation(client):
    view = start(client, "triolet/standard", seed=1)
    typed = view["moves"][0]["text"].removeprefix("place ")
    after = client.post(f"/api/games/{view['id']}/move", json={"move": typed})
    assert after.status_code == 200 and after.json()["log"][0]["move"] == "place " + typed


def test_bad_requests_get_a_4xx_with_a_message(client):
    gid = start(client)["id"]
    cases = [
        client.post(f"/api/games/{gid}/move", json={"move": "place 0-0-0@9,9"}),
        client.post(f"/api/games/{gid}/move", json={"move": 7}),
        client.post(f"/api/games/{gid}/move", content=b"{not json"),
        client.post("/api/games", json={"ruleset": "no/such"}),
        client.post("/api/games", json={"ruleset": "/etc/passwd"}),
        client.post("/api/games", json={"ruleset": "../rulesets/triolet/standard.yaml"}),
        client.post("/api/games", json={"ruleset": "triolet/standard", "overlays": ["/tmp/x"]}),
        client.post("/api/games", json={"ruleset": "triolet/standard", "seats": ["human"]}),
        client.post("/api/games", json={"ruleset": "triolet/standard", "seed": "x"}),
        client.post("/api/games", json={"ruleset": "triolet/standard",
                                        "seats": ["human", "mcts:999999"]}),  # not offered
        client.post("/api/games", json=[1, 2]),
        client.get("/api/games/not-a-game"),
        client.post(f"/api/games/{gid}/goto", json={"n": 1}),
        client.post("/api/records", content=b"{"),
        client.post("/api/records", content=json.dumps({"format": "rulecraft-record"}).encode()),
        client.post("/api/records", content=b" " * (MAX_RECORD_BYTES + 1)),
        client.get("/static/../engine/web/app.py"),
        client.get("/no/such/page"),
    ]
    for got in cases:
        assert 400 <= got.status_code < 500, (got.request.url, got.status_code, got.text)
        assert got.json()["error"] and "Traceback" not in got.text
    assert cases[-3].status_code == 413


def test_a_record_naming_a_file_as_its_ruleset_is_refused(client):
    view = start(client)
    record = json.loads(client.get(f"/api/games/{view['id']}/record").text)
    record["ruleset"]["id"] = "/etc/passwd"
    got = client.post("/api/records", content=json.dumps(record).encode())
    assert got.status_code == 400 and "ruleset" in got.json()["error"]


def test_the_record_replays_on_the_command_line_and_steps_in_the_page(client, tmp_path):
    view = start(client, seed=6)
    gid = view["id"]
    for _ in range(3):
        view = client.post(f"/api/games/{gid}/move", json={"move": view["moves"][0]["text"]}).json()
    text = client.get(f"/api/games/{gid}/record").text
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    replayed = CliRunner().invoke(cli, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert f"scores: {view['scores']}" in replayed.output
    loaded = client.post("/api/records", content=text.encode()).json()
    n = loaded["replay"]["length"]
    assert n == len(view["log"]) and loaded["replay"]["cursor"] == n
    assert loaded["scores"] == view["scores"] and not loaded["your_turn"]
    start_pos = client.post(f"/api/games/{loaded['id']}/goto", json={"n": 0}).json()
    assert start_pos["scores"] == [0, 0] and start_pos["log"] == []
    one = client.post(f"/api/games/{loaded['id']}/goto", json={"n": 1}).json()
    assert one["log"][0]["move"] == view["log"][0]["move"]
    assert client.post(f"/api/games/{loaded['id']}/move", json={"move": "x"}).status_code == 400


def test_the_solver_clears_a_solitaire_deal(client):
    view = start(client, "tripeaks/aisleriot", seats=["human"], seed=5)
    gid = view["id"]
    verdict = client.get(f"/api/games/{gid}/solver").json()
    assert verdict["clearable"] is True and verdict["next"] == verdict["line"][0]
    for move in verdict["line"]:
        view = client.post(f"/api/games/{gid}/move", json={"move": move}).json()
    assert client.get(f"/api/games/{gid}/solver").json()["clearable"] is None  # over
    assert view["over"] and view["reason"] == "cleared" and view["winner"] == 0
    hint = client.get(f"/api/games/{gid}/hint")
    assert hint.status_code == 400  # the game is over: nothing to hint at


def test_rulecraft_serve_answers_on_the_port_it_is_given():
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "engine", "serve", "--port", str(port),
                               "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(200):
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        assert page.status_code == 200 and "<title>Rulecraft</title>" in page.text
        assert 'src="/static/app.js"' in page.text and "http" not in page.text.split("<body>")[1]
    finally:
        server.terminate()
        server.wait(10)


def test_rulecraft_serve_on_a_port_in_use_is_one_line_and_exit_1():
    # uvicorn exited 3 after its own log line, having been announced as serving there.
    # A real process: in this one, the browser tests' Playwright owns the event loop.
    import socket
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "engine", "serve", "--port", str(port),
                                 "--no-browser"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert f"error: cannot listen on 127.0.0.1:{port}; choose another --port" in result.stderr
    assert "serving on" not in result.stdout


def test_a_ruleset_without_undo_refuses_it(client):
    # tripeaks/pysol-scored: `play.undo: false` (PySolFC disables undo when scored, TP-13)
    view = start(client, "tripeaks/pysol-scored", seats=("human",), seed=5)
    assert view["undo"] is False and start(client, "tripeaks/aisleriot", seats=("human",),
                                           seed=5)["undo"] is True
    after = client.post(f"/api/games/{view['id']}/move", json={"move": view["moves"][0]["text"]})
    got = client.post(f"/api/games/{view['id']}/undo")
    assert got.status_code == 400 and "does not allow undo" in got.json()["error"]
    kept = client.get(f"/api/games/{view['id']}").json()
    assert len(kept["log"]) == 1 and kept["scores"] == after.json()["scores"]


def test_a_timed_game_keeps_the_servers_seconds_in_its_record(client, tmp_path):
    view = start(client, "klondike/windows", seats=("human",), seed=3, overlays=("timed",))
    assert view["clock"] == 0 and start(client, "klondike/windows", seats=("human",),
                                        seed=3)["clock"] is None  # no clock read: none shown
    after = client.post(f"/api/games/{view['id']}/move", json={"move": "deal"}).json()
    record = json.loads(client.get(f"/api/games/{view['id']}/record").text)
    seconds = record["moves"][0]["seconds"]
    assert type(seconds) is int and seconds >= 0 and after["clock"] == seconds
    path = tmp_path / "timed.json"
    path.write_text(json.dumps(record))
    assert CliRunner().invoke(cli, ["replay", str(path)]).exit_code == 0
