"""Credentials: seat tokens, invite and spectator keys (made by `secrets.token_urlsafe`) and the club's admin
token. A credential from outside is checked for its alphabet and length before anything else, and compared
as bytes in constant time: a malformed one (non-ASCII, control characters, absurdly long) is simply not
valid, never an error of the server."""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any

TOKEN_BYTES = 24  # seat tokens: 192 bits from `secrets`
KEY_BYTES = 16  # invite and spectator keys: 128 bits
MAX_LENGTH = 128  # generated credentials have 22 (keys) or 32 (seat tokens) characters
_URLSAFE = re.compile(r"[A-Za-z0-9_-]+")
_ADMIN_MAX_BYTES = 1024


def well_formed(given: Any) -> bool:
    """A credential of the alphabet and length `secrets.token_urlsafe` makes."""
    return isinstance(given, str) and 0 < len(given) <= MAX_LENGTH and _URLSAFE.fullmatch(given) is not None


def same_secret(given: Any, expected: str) -> bool:
    """`given` is a well-formed credential equal to `expected` (bytes compared in constant time)."""
    return well_formed(given) and hmac.compare_digest(given.encode("ascii"), expected.encode("ascii"))


def same_admin_token(given: Any, expected: str) -> bool:
    """The admin token is the club's own choice of characters: compared as UTF-8 bytes, bounded in length."""
    if not isinstance(given, str) or not given:
        return False
    try:
        raw = given.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: not text a person typed
        return False
    return len(raw) <= _ADMIN_MAX_BYTES and hmac.compare_digest(raw, expected.encode("utf-8"))


def hash_token(token: str) -> str:
    """What is stored of a seat token: its SHA-256 (the token itself never is). Defined for any text, so that
    a malformed credential hashes to something no seat has rather than failing."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
