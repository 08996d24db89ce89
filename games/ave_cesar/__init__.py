"""Ave César (Haig & Rikki Tahta; English edition *Senators*), 3 to 5 players: buy, extort and trade your way to
the most senators before the 4th War. The rules as implemented are in RULES.md (RULES.fr.md in French);
games/README.md says what each module of this package holds."""

from .engine import AveCesar

__all__ = ["AveCesar"]
