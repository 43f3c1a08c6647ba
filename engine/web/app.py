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
    try:
        return json.loads(await _body(request) or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise games.BadRequest("the request is not JSON") from None


def create_app(sessions: Sessions | None = None) -> Starlette:
    """The application: the page, its static files and the JSON API."""
    store = sessions or Sessions()

    def session_of(request: Request):
        found = store.get(request.path_params["game"])
        if found is None:
            raise LookupError("no such game (it may have ended with the server)")
        return found

    async def answer(request: Request, work) -> Response:
        """Run `work(session)` in a worker thread, one request per session at a time."""
        session = session_of(request)

        def locked():
            with session.lock:
                return work(session)

        result = await run_in_threadpool(locked)
        return result if isinstance(result, Response) else JSONResponse(result)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def get_catalog(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(catalog))

    async def create(request: Request) -> Response:
        body = await _json(request)
        session = await run_in_threadpool(games.new_session, body)
        token = store.add(session)
        return JSONResponse(await run_in_threadpool(session_json, token, session))

    def token_of(request: Request) -> str:
        return request.path_params["game"]

    async def show(request: Request) -> Response:
        return await answer(request, lambda s: session_json(token_of(request), s))

    async def move(request: Request) -> Response:
        body = await _json(request)
        text = body.get("move") if isinstance(body, dict) else None

        def work(s):
            games.play(s, text)
            return session_json(token_of(request), s)
        return await answer(request, work)

    async def undo(request: Request) -> Response:
        def work(s):
            games._guarded(s.undo)
            games._guarded(s.run_computers)
            return session_json(token_of(request), s)
        return await answer(request, work)

    async def restart(request: Request) -> Response:
        def work(s):
            if s.replay is not None:
                s.goto(0)
            else:
                games._guarded(s.start)
                games._guarded(s.run_computers)
            return session_json(token_of(request), s)
        return await answer(request, work)

    async def goto(request: Request) -> Response:
        body = await _json(request)
        n = body.get("n") if isinstance(body, dict) else None
        if type(n) is not int:
            raise games.BadRequest("send `{\"n\": <a move number>}`")

        def work(s):
            games._guarded(lambda: s.goto(n))
            return session_json(token_of(request), s)
        return await answer(request, work)

    async def hint(request: Request) -> Response:
        return await answer(request, games.hint)

    async def solver(request: Request) -> Response:
        return await answer(request, games.solver_view)

    async def record(request: Request) -> Response:
        def work(s):
            name = s.setup.ruleset.replace("/", "-") + f"-seed{s.setup.seed}.json"
            return Response(record_text(s), media_type="application/json", headers={
                "Content-Disposition": f'attachment; filename="{name}"'})
        return await answer(request, work)

    async def upload(request: Request) -> Response:
        body = await _body(request, MAX_RECORD_BYTES)
        loaded = await run_in_threadpool(parse_uploaded, body)
        session = await run_in_threadpool(games.replay_session, loaded)
        token = store.add(session)
        return JSONResponse(await run_in_threadpool(session_json, token, session))

    routes = [
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
    handlers = {
        games.BadRequest: lambda r, e: _error(400, str(e)),
        BadRecord: lambda r, e: _error(413 if "larger" in str(e) else 400, str(e)),
        LookupError: lambda r, e: _error(404, str(e)),
        404: lambda r, e: _error(404, "no such page"),
        405: lambda r, e: _error(405, "that method is not allowed here"),
        Exception: lambda r, e: _error(500, f"internal error: {type(e).__name__}"),
    }
    return Starlette(routes=routes, exception_handlers=handlers)
