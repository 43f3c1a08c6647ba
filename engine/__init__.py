"""Rulecraft: a rules-as-data engine. Every game and house variant is a YAML ruleset."""

__version__ = "0.1.0"
