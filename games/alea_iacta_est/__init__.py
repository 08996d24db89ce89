"""Alea Iacta Est (César jouait-il aux dés ?), 2-5 players: the rules engine.

Modules: cards (components and set-up as data), rules (placement rules and rankings), engine (the Game
subclass: turns and round evaluation), scoring (end of game), view (what a seat sees), hidden (who knows
what, and the resample), messages (game-log sentences). RULES.md states the rules as implemented.
"""

from .engine import AleaIactaEst

__all__ = ["AleaIactaEst"]
