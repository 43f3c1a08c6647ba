"""Games on Ray: each chunk of seeds is one Ray task, and chunks stream back as they
finish. A task runs the function given (`engine.analysis.runs.run_chunk`), the same function the local workers
run, so a game is the same game wherever it is played. See docs/scale.md.
"""

from __future__ import annotations

import logging
import os
from typing import Callable, Iterator, Sequence

from engine.extras import require

_REMOTE: dict = {}


def start_ray(address: str | None = None, cpus: int | None = None):
    """The `ray` module, connected: to `address`, or to a local Ray of `cpus` CPUs
    (default: the machine's cores); an already connected Ray is reused."""
    ray = require("ray", "ray", "--backend ray")
    if address:
        check_reachable(address)
    if not ray.is_initialized():
        if address:
            # A cluster's workers have Rulecraft installed (docs/scale.md): their own paths.
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        else:
            ray.init(num_cpus=cpus or os.cpu_count() or 1, include_dashboard=False,
                     log_to_driver=False, logging_level=logging.ERROR,
                     runtime_env=_runtime_env())
    return ray


class Unreachable(ConnectionError):
    """No Ray head answers at the address given (Ray itself would wait for minutes)."""


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Unreachable unless something listens at `address` (`host:port`, `ray://host:port`;
    `auto` and other forms are left to Ray)."""
    import socket

    hostport = address.split("://", 1)[-1]
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise Unreachable(f"no Ray cluster answers at {address}"
                          f" ({exc.strerror or type(exc).__name__})") from None


def _runtime_env() -> dict:
    """Local workers import `engine` from the folder this process loaded it from."""
    import engine

    root = os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__)))
    return {"env_vars": {"PYTHONPATH": root}}


def iter_ray_results(run: Callable, tasks: Sequence[tuple[int, tuple]],
                     address: str | None = None,
                     cpus: int | None = None) -> Iterator[tuple[int, list]]:
    """(spec index, `run(task)`) for each task, as Ray tasks, in the order they finish."""
    ray = start_ray(address, cpus)
    remote = _REMOTE.get(run)
    if remote is None:
        remote = _REMOTE[run] = ray.remote(run)
    pending = {remote.remote(task): k for k, task in tasks}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)
    finally:
        for ref in pending:  # interrupted: do not leave the cluster playing for nobody
            ray.cancel(ref)
