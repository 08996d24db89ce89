"""JSON from clients, parsed with a size and a depth limit: the one parser of the JSON API (through the edge
middleware), the table page's action field, the option fields of the create form and the websocket.

Python's json recurses once per level, so a few thousand `[` raise RecursionError; the nesting is measured
first, without recursion, and refused past MAX_DEPTH (no message of Tabula nests more than a few levels).
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32
MAX_JSON = 65_536  # characters of one JSON text (a request body is also bounded by settings.max_body)

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


class BadJSON(ValueError):
    """A JSON text refused before or while parsing; `status` is 400 (malformed, too deep) or 413 (too large)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def check_json(text: str | bytes, max_chars: int = MAX_JSON) -> str:
    """The text, once its size and nesting are known to be safe to parse; BadJSON otherwise."""
    if len(text) > max_chars:
        raise BadJSON(413, "That request is too large.")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJSON(400, "JSON must be UTF-8.") from None
    # A text nests no deeper than it has brackets: most (a move, a form's fields) have too few to be measured.
    if text.count("[") + text.count("{") > MAX_DEPTH and nesting(text) > MAX_DEPTH:
        raise BadJSON(400, f"That JSON is nested too deeply (at most {MAX_DEPTH} levels).")
    return text


def parse_json(text: str | bytes, max_chars: int = MAX_JSON) -> Any:
    """Parses a client's JSON text; BadJSON (400 or 413, with a sentence) when it is too large, too deep or
    not JSON."""
    try:
        return json.loads(check_json(text, max_chars))
    except ValueError as e:
        if isinstance(e, BadJSON):
            raise
        raise BadJSON(400, "That is not valid JSON.") from None
