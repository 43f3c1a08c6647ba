"""The shipped rulesets, found on disk, so that a new family is tested without a change."""

from __future__ import annotations

from engine.rules import files

SHIPPED = sorted(rid for rid, _ in files.iter_ruleset_files())
