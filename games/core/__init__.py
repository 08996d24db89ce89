"""The engine contract shared by every game (see game.py) and its randomness (rng.py)."""

from .game import (
    CORE_CONFIRMATIONS,
    CORE_MESSAGES,
    CORE_REFUSALS,
    LANGS,
    PLURAL_RULES,
    UNDO,
    Action,
    Game,
    IllegalAction,
    Option,
    Seat,
    State,
    Text,
    add_language,
    clone,
    copy_by_shape,
    fill,
    format_text,
    in_lang,
    log_entry,
    log_visible,
    reveal_line,
    score_line,
)

__all__ = [
    "CORE_CONFIRMATIONS", "CORE_MESSAGES", "CORE_REFUSALS", "LANGS", "PLURAL_RULES", "UNDO", "Action", "Game",
    "IllegalAction", "Option", "Seat", "State", "Text", "add_language", "clone", "copy_by_shape", "fill", "format_text", "in_lang",
    "log_entry", "log_visible", "reveal_line", "score_line",
]
