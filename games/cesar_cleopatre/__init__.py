"""César & Cléopâtre (Caesar & Cleopatra, W. Lüdtke, Kosmos 1997), for 2 players. The rules as implemented
are in RULES.md (RULES.fr.md in French); games/README.md says what each module of this package holds."""

from .engine import CesarCleopatre

__all__ = ["CesarCleopatre"]
