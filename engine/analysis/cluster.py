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
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR,
                     runtime_env=_runtime_env())
        else:
            ray.init(num_cpus=cpus or os.cpu_count() or 1, include_dashboard=False,
                     log_to_driver=False, logging_level=logging.ERROR,
                     runtime_env=_runtime_env())
    return ray


def _runtime_env() -> dict:
    """Workers import `engine` from the folder this process loaded it from."""
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
