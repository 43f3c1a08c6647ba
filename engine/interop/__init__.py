"""Rulecraft games in other tools: OpenSpiel (`openspiel`), PettingZoo and Gymnasium
(`pettingzoo`). Each adapter is a thin class over the kernel's public API (`new_game`,
`legal_moves`, `apply`, `clone`); `engine.interop.views` holds what they share."""
