"""Analysis: what a rule change does. `diff` compares two resolved rulesets; `explain`
breaks a move's points down by rule; `compare` plays the same seeded deals under several
rulesets; coverage counts how often each scoring rule fired.

This layer sits above the kernel and the players: it runs games through their public APIs
and never re-implements game logic.
"""
