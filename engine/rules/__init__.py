"""The rules layer: safe YAML with positions, ruleset files and ids, `extends` and
overlays, the JSON schema, and lint. `engine.rules.model` (the ruleset model) builds on it.
"""

from engine.rules.resolve import Ruleset, check_ruleset, load_ruleset, resolve_ruleset

__all__ = ["Ruleset", "check_ruleset", "load_ruleset", "resolve_ruleset"]
