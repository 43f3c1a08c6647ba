"""The ASGI application of `rulecraft serve`, built by `create_app()`.

Routes are small: they read the request, call `engine.web.games` and answer JSON. A bad
request (an unknown ruleset, an illegal move, a malformed record, an unknown game id) is
a 4xx with `{"error": message}`; nothing a browser sends is used as a file path.
"""

from __future__ import annotations

import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from engine.web import games
from engine.web.catalog import catalog
from engine.web.records import BadRecord, MAX_RECORD_BYTES, parse_uploaded, record_text
from engine.web.sessions import Sessions
from engine.web.views import session_json

STATIC = Path(__file__).parent / "static"
MAX_JSON_BYTES = 64_000


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, limit: int = MAX_JSON_BYTES) -> bytes:
    """The request body, refused past `limit` bytes (read in chunks, never all first)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRecord(f"the request is larger than {limit // 1000} kB")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request) -> object:
    """The JSON body (`{}` when empty); not JSON is a bad request."""
    try:
        return json.loads(await _body(request) or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise games.BadRequest("the request is not JSON") from None


async def _field(request: Request, name: str) -> object:
    """One field of a JSON object body (None if absent)."""
    body = await _json(request)
    return body.get(name) if isinstance(body, dict) else None


async def _started(request: Request, session) -> Response:
    """A new session kept under a new token, answered as its first view."""
    token = request.app.state.sessions.add(session)
    return JSONResponse(await run_in_threadpool(session_json, token, session))


async def _answer(request: Request, work) -> Response:
    """Run `work(session)` in a worker thread, one request per session at a time, and
    answer its result (a view unless `work` made a response)."""
    token = request.path_params["game"]
    session = request.app.state.sessions.get(token)
    if session is None:
        raise LookupError("no such game (it may have ended with the server)")

    def locked():
        with session.lock:
            result = work(session)
            return session_json(token, session) if result is None else result

    result = await run_in_threadpool(locked)
    return result if isinstance(result, Response) else JSONResponse(result)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def get_catalog(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(catalog))


async def create(request: Request) -> Response:
    """A new game from the page's choices."""
    body = await _json(request)
    return await _started(request, await run_in_threadpool(games.new_session, body))


def _on_session(name: str, work):
    """The route `name` that answers `work(session)` (see `_answer`), for requests with
    nothing more to read."""
    async def route(request: Request) -> Response:
        return await _answer(request, work)
    route.__name__ = route.__qualname__ = name
    return route


show = _on_session("show", lambda s: None)  # the game's view as it stands
undo = _on_session("undo", games.undo)
restart = _on_session("restart", games.restart)
hint = _on_session("hint", games.hint)
solver = _on_session("solver", games.solver_view)


async def move(request: Request) -> Response:
    text = await _field(request, "move")
    return await _answer(request, lambda s: games.play(s, text))


async def goto(request: Request) -> Response:
    n = await _field(request, "n")
    if type(n) is not int:
        raise games.BadRequest("send `{\"n\": <a move number>}`")
    return await _answer(request, lambda s: games.goto(s, n))


async def record(request: Request) -> Response:
    def download(s):
        name = s.setup.ruleset.replace("/", "-") + f"-seed{s.setup.seed}.json"
        return Response(record_text(s), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
    return await _answer(request, download)


async def upload(request: Request) -> Response:
    """A record to step through: size-limited, parsed by the kernel's loader."""
    body = await _body(request, MAX_RECORD_BYTES)
    loaded = await run_in_threadpool(parse_uploaded, body)
    return await _started(request, await run_in_threadpool(games.replay_session, loaded))


ROUTES = [
    Route("/", index), Route("/api/catalog", get_catalog),
    Route("/favicon.ico", lambda r: Response(status_code=204)),
    Route("/api/games", create, methods=["POST"]),
    Route("/api/games/{game}", show),
    Route("/api/games/{game}/move", move, methods=["POST"]),
    Route("/api/games/{game}/undo", undo, methods=["POST"]),
    Route("/api/games/{game}/restart", restart, methods=["POST"]),
    Route("/api/games/{game}/goto", goto, methods=["POST"]),
    Route("/api/games/{game}/hint", hint), Route("/api/games/{game}/solver", solver),
    Route("/api/games/{game}/record", record),
    Route("/api/records", upload, methods=["POST"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
HANDLERS = {
    games.BadRequest: lambda r, e: _error(400, str(e)),
    BadRecord: lambda r, e: _error(413 if "larger" in str(e) else 400, str(e)),
    LookupError: lambda r, e: _error(404, str(e)),
    404: lambda r, e: _error(404, "no such page"),
    405: lambda r, e: _error(405, "that method is not allowed here"),
    Exception: lambda r, e: _error(500, f"internal error: {type(e).__name__}"),
}


def create_app(sessions: Sessions | None = None) -> Starlette:
    """The application: the page, its static files and the JSON API; games are kept in
    `sessions` (a new store by default)."""
    app = Starlette(routes=ROUTES, exception_handlers=HANDLERS)
    app.state.sessions = sessions or Sessions()
    return app
