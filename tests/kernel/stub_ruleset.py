"""A Ruleset-like object for kernel tests: a YAML text with a position for every value.

It stands in for `engine.rules.load_ruleset` so that the kernel's tests need neither the
shipped rulesets nor the rules layer's resolution (no `extends`, no overlays).
"""

from __future__ import annotations

import hashlib
import json

import yaml

from engine.diagnostics import Position


class StubRuleset:
    def __init__(self, text: str, path: str = "test.yaml"):
        self.path = path
        self.positions: dict[tuple, Position] = {}
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        self.data = self._build(node, ())
        header = self.data.get("ruleset") or {}
        self.game = header.get("game", "test")
        self.id = f"{self.game}/{path.rsplit('/', 1)[-1].removesuffix('.yaml')}"
        self.title = header.get("title", self.id)
        self.overlays: list[str] = []
        self.hash = hashlib.sha256(json.dumps(self.data, sort_keys=True, default=str).encode()).hexdigest()

    def _build(self, node, path):
        mark = node.start_mark
        self.positions[path] = Position(self.path, mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            out = {}
            for knode, vnode in node.value:
                key = _scalar(knode)
                if isinstance(key, bool):  # `on:` is a key, not YAML 1.1 true
                    key = knode.value
                out[key] = self._build(vnode, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self._build(v, path + (i,)) for i, v in enumerate(node.value)]
        return _scalar(node)

    def where(self, *path):
        return self.positions.get(tuple(path))


_CONSTRUCTOR = yaml.SafeLoader("")


def _scalar(node):
    return _CONSTRUCTOR.construct_object(node, deep=True)
