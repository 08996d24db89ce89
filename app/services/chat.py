"""The chat of a table: one channel for its players, one for its spectators. Spectators read both; players
read only theirs. Every chat write (a message, an admin's deletion or mute) goes through this service, on
the tables service's connections and writer, and is committed before it is published (`on_change`: the
realtime hub pushes the chat to the table's open pages and sockets).

A message is stamped with the table version its writer saw (a spectator's: the delayed one), so a replay
shows it at its place: `chat_for(table_id, seat, upto_version)`.
"""

from __future__ import annotations

import re
import unicodedata
from types import SimpleNamespace
from typing import Any, Awaitable, Callable

from sqlalchemy import insert, select, update

from ..models import CHAT_CHANNELS, PLAYERS_CHAT, SPECTATORS_CHAT, ChatMessage
from ..web.limits import RateLimits
from .errors import BadRequest, Forbidden, NotFound
from .tables import AUDIT, SEATS, TABLES, Audit, TablesService, _iso, clean_name, now

CHAT = ChatMessage.__table__
# The channels a seat reads, and a spectator (both): each condition built once (`tables.TABLES_AMONG` says why).
READ_BY = {True: CHAT.c.channel == PLAYERS_CHAT, False: CHAT.c.channel.in_(CHAT_CHANNELS)}
TEXT_MAX = 500  # characters of one message
SHOWN = 100  # the newest messages a page or a read shows
# Markup is refused rather than stored escaped: a tag in a chat line is a mistake or an attempt, never a word.
_MARKUP = re.compile(r"<\s*[/!?]?\s*[A-Za-z]")

ChatHook = Callable[[str], Awaitable[None]]


def clean_text(raw: Any) -> str:
    """A chat message as it is stored: NFC, trimmed, 1 to TEXT_MAX characters, no control characters but line
    breaks, no markup. BadRequest with the reason otherwise."""
    if not isinstance(raw, str):
        raise BadRequest("A chat message is a text.")
    text = unicodedata.normalize("NFC", raw).replace("\r\n", "\n").strip()
    if not text:
        raise BadRequest("A chat message cannot be empty.")
    if len(text) > TEXT_MAX:
        raise BadRequest("A chat message has at most {max} characters.", {"max": TEXT_MAX})
    if any(unicodedata.category(ch).startswith("C") and ch != "\n" for ch in text):
        raise BadRequest("A chat message cannot contain control characters.")
    if _MARKUP.search(text):
        raise BadRequest("A chat message cannot contain markup (HTML tags).")
    return text


def _message(row: Any) -> dict[str, Any]:
    return {"id": row.id, "channel": row.channel, "seat": row.seat, "name": row.name, "text": row.text,
            "version": row.version, "at": _iso(row.created_at)}


class ChatService:
    def __init__(self, tables: TablesService, limits: RateLimits):
        self.tables = tables
        self.limits = limits
        self.on_change: list[ChatHook] = []

    async def _published(self, table_id: str) -> None:
        for hook in self.on_change:
            await hook(table_id)

    # ------------------------------------------------------------------------------------- reading

    async def chat_for(self, table_id: str, seat: int | None, upto_version: int | None = None,
                       limit: int | None = SHOWN) -> list[dict[str, Any]]:
        """The messages `seat` may read (None: a spectator, who reads both channels), oldest first, written
        at or before `upto_version` when given (a replay step), the newest `limit` of them (None: all).
        Deleted messages are left out."""
        query = select(CHAT).where(CHAT.c.table_id == table_id, READ_BY[seat is not None], CHAT.c.deleted.is_(False))
        if upto_version is not None:
            query = query.where(CHAT.c.version <= upto_version)
        query = query.order_by(CHAT.c.id.desc())
        if limit is not None:
            query = query.limit(limit)
        async with self.tables.autocommit.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_message(r) for r in reversed(rows)]

    async def read(self, table_id: str, credential: str | None) -> dict[str, Any]:
        """The chat as the holder of `credential` sees it (the JSON API and the page)."""
        ident = await self.tables.identify(table_id, credential)
        return await self.state(table_id, ident.seat)

    async def state(self, table_id: str, seat: int | None) -> dict[str, Any]:
        """What a seat's (or a spectator's) chat shows: its messages (a spectator's, up to the version the
        delay lets them see) and whether it may write."""
        snap = await self.tables.seen_by(await self.tables.current(table_id), seat)
        muted = await self._muted(table_id, seat)
        upto = snap.version if seat is None and snap.spectator_delay else None
        return {"channel": PLAYERS_CHAT if seat is not None else SPECTATORS_CHAT, "muted": muted,
                "messages": await self.chat_for(table_id, seat, upto)}

    async def _muted(self, table_id: str, seat: int | None) -> bool:
        async with self.tables.autocommit.connect() as conn:
            if seat is None:
                return bool((await conn.execute(select(TABLES.c.spectator_chat_muted)
                                                .where(TABLES.c.id == table_id))).scalar())
            return bool((await conn.execute(select(SEATS.c.chat_muted).where(
                SEATS.c.table_id == table_id, SEATS.c.number == seat))).scalar())

    # ------------------------------------------------------------------------------------- writing

    async def post(self, table_id: str, credential: str | None, text: Any, name: Any = None,
                   client: str = "") -> dict[str, Any]:
        """A message from a seat (to the players' chat, under its seat's name) or a spectator (to the
        spectators' chat, under the `name` they give; `client`, their address, counts their rate). Nothing
        is written on any refusal."""
        ident = await self.tables.identify(table_id, credential)
        text = clean_text(text)
        snap = await self.tables.current(table_id)
        if ident.seat is None:
            name = clean_name(name)
            sender, channel = f"spectator:{client}", SPECTATORS_CHAT
        else:
            name = snap.seat_names[ident.seat] or ""
            sender, channel = f"seat:{ident.seat}", PLAYERS_CHAT
        if await self._muted(table_id, ident.seat):
            raise Forbidden("An admin muted this chat for you.")
        await self.limits.chat_message(table_id, sender)
        row = {"channel": channel, "seat": ident.seat, "name": name, "text": text,
               "version": (await self.tables.seen_by(snap, ident.seat)).version, "created_at": now()}
        async with self.tables._writer() as conn:
            new_id = (await conn.execute(insert(CHAT).values(table_id=table_id, deleted=False, **row)
                                         .returning(CHAT.c.id))).scalar_one()
        await self._published(table_id)
        return _message(SimpleNamespace(id=new_id, **row))

    # ------------------------------------------------------------------------------ moderation (admin)

    async def delete(self, table_id: str, message_id: int, audit: Audit) -> None:
        """An admin hides a message (it stays stored)."""
        await self._moderate(table_id, update(CHAT).where(CHAT.c.table_id == table_id, CHAT.c.id == message_id)
                             .values(deleted=True), "There is no such chat message at this table.", audit)

    async def mute(self, table_id: str, seat: int | None, muted: bool, audit: Audit) -> None:
        """An admin mutes (or lets speak again) a seat, or the spectators' chat (seat None)."""
        change = (update(TABLES).where(TABLES.c.id == table_id).values(spectator_chat_muted=muted) if seat is None
                  else update(SEATS).where(SEATS.c.table_id == table_id, SEATS.c.number == seat)
                  .values(chat_muted=muted))
        await self._moderate(table_id, change, "There is no such table or seat.", audit)

    async def _moderate(self, table_id: str, change: Any, missing: str, audit: Audit) -> None:
        """One moderation: the change of one row and its audit entry in one transaction (NotFound, with
        `missing`, when no row matched), then published."""
        async with self.tables._writer() as conn:
            if (await conn.execute(change)).rowcount != 1:
                raise NotFound(missing)
            await conn.execute(insert(AUDIT).values(at=now(), **audit.row()))
        await self._published(table_id)

    async def moderation(self, table_id: str) -> dict[str, Any]:
        """Everything an admin moderates at a table: both channels (deleted messages too, marked) and the
        mutes."""
        async with self.tables.autocommit.connect() as conn:
            rows = (await conn.execute(select(CHAT).where(CHAT.c.table_id == table_id)
                                       .order_by(CHAT.c.id.desc()).limit(SHOWN))).all()
            table = (await conn.execute(select(TABLES.c.spectator_chat_muted).where(TABLES.c.id == table_id))).first()
            seats = (await conn.execute(select(SEATS.c.number, SEATS.c.name, SEATS.c.chat_muted)
                                        .where(SEATS.c.table_id == table_id).order_by(SEATS.c.number))).all()
        if table is None:
            raise NotFound("There is no such table.")
        return {"messages": [{**_message(r), "deleted": bool(r.deleted)} for r in reversed(rows)],
                "spectators_muted": bool(table.spectator_chat_muted),
                "seats": [{"number": s.number, "name": s.name, "muted": bool(s.chat_muted)} for s in seats]}
