"""Errors of the service layer. Each carries the HTTP status it maps to and a sentence a player can read;
nothing from a game state goes into one except, for a 409, the caller's own view."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 500

    def __init__(self, message: str, values: dict[str, Any] | None = None):
        # `message` is an English msgid of the catalogs, with `{name}` places filled from `values` (a value may
        # be a text by language code); a page translates the msgid first, then fills it (app.i18n).
        self.template = message
        self.values = dict(values or {})
        if self.values:
            message = message.format(**{k: v["en"] if isinstance(v, dict) else v for k, v in self.values.items()})
        super().__init__(message)
        self.message = message

    def body(self) -> dict[str, Any]:
        return {"error": self.message}


class BadRequest(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """The table is not where the caller thinks: a stale version, a full table, a finished game.
    Carries the caller's current view and version when it has one."""

    status = 409

    def __init__(self, message: str, version: int | None = None, view: dict[str, Any] | None = None):
        super().__init__(message)
        self.version = version
        self.view = view

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message}
        if self.version is not None:
            body["version"] = self.version
            body["view"] = self.view
        return body


class Illegal(ServiceError):
    """The engine refused the action; the message is the engine's own sentence, `refusal` its code and
    arguments (games.core.IllegalAction), which a page puts in its reader's language."""

    status = 422

    def __init__(self, message: str, refusal: tuple[str, dict[str, Any]] | None = None):
        super().__init__(message)
        self.refusal = refusal


class EngineFailure(ServiceError):
    """The engine raised something other than a rules refusal (a bug); nothing was written."""

    status = 500
