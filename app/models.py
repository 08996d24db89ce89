"""The database schema: tables (one row per game table), their seats, the append-only action log, the
seat changes (bots taking over, players taking back), live presence, the chat, and the admins' audit log. Every change here needs an
Alembic migration (tests/app/test_skeleton.py checks that they agree). Only the tables service
(app/services/tables.py) reads and writes these rows, through SQLAlchemy Core on the tables declared here.

A table's `state` is the engine's canonical encoding (`Game.encode`) of the state after `version`;
replaying the `actions` rows in version order from `setup(players, seed, options)` must give it back
exactly (`tabula replay-check`). The `seed` is secret until the game is over.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Stable constraint names, so migrations can refer to them on every database.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

LOBBY = "lobby"
PLAYING = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"  # a game nobody played for a long time, ended by the clean-up (app/services/cleanup.py)
STATUSES = (LOBBY, PLAYING, FINISHED, ABANDONED)
ENDED = (FINISHED, ABANDONED)  # no move can change these tables any more

TAKEOVER = "takeover"  # the kinds of a seat change: a bot takes a person's seat over, or its player takes it back
RECLAIM = "reclaim"

SPECTATOR_SEAT = -1  # presence rows for spectators


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Table(Base):
    """One game table. `version` counts every change a client can see (joins, leaves, start, actions)."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # secret until the game is over
    status: Mapped[str] = mapped_column(String(16), default=LOBBY)
    version: Mapped[int] = mapped_column(Integer, default=0)
    rules_version: Mapped[int] = mapped_column(Integer)
    state: Mapped[str | None] = mapped_column(Text, nullable=True)  # Game.encode(state); None in the lobby
    invite_key: Mapped[str] = mapped_column(String(64), unique=True)
    spectator_key: Mapped[str] = mapped_column(String(64), unique=True)
    spectators: Mapped[int] = mapped_column(Integer, default=0)  # live count, kept by the realtime hub
    # The turn timer: seconds per decision (None: no timer), and the deadline of the decision under way,
    # set with each committed version while a seat played by a person is to act (None otherwise).
    turn_timer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deadline_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Who may watch and find the table: spectators at all (without, no spectator link works), how many
    # actions behind the game they see it, and whether the lobby lists it (a private table never is).
    spectators_allowed: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    spectator_delay: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The table of the rematch this table's players started (None: none yet); set once.
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    spectator_chat_muted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    seats: Mapped[list["Seat"]] = relationship(back_populates="table", order_by="Seat.number")

    __table_args__ = (Index("ix_tables_status_updated", "status", "updated_at"),
                      Index("ix_tables_deadline", "deadline_at"),
                      Index("ix_tables_listed", "private", "status"))


class Seat(Base):
    """One seat of a table. A claimed seat has a name and the SHA-256 of its secret token."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    connected: Mapped[bool] = mapped_column(Boolean, default=False)
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # every tab hidden
    # Since when the seat is connected, away or disconnected as it is now (None: never connected).
    presence_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Who plays the seat when it is not a person: the bot's level (None: the person seated here). A bot seat
    # has a bot name and the hash of a token nobody holds; a seat a bot took over (`bot_takeover`) keeps
    # its player's name and token, so the player can take it back (app/services/bots.py).
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    bot_takeover: Mapped[bool] = mapped_column(Boolean, default=False)
    chat_muted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # by an admin

    table: Mapped[Table] = relationship(back_populates="seats")


class ActionLog(Base):
    """The append-only action log: the action that took the table to `version`."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)  # compact JSON
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatChange(Base):
    """A change of who plays a seat during a game: a bot taking it over ("takeover": the turn timer ran out,
    or the player left) or its player taking it back ("reclaim"). Like an action, it moved the table to
    `version`, so every version after the start is either an action or a seat change (`tabula replay-check`)."""

    __tablename__ = "seat_changes"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)  # several seats may change in one version
    kind: Mapped[str] = mapped_column(String(16))  # TAKEOVER or RECLAIM
    reason: Mapped[str] = mapped_column(String(16))  # "timeout", "left" or "returned"
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)  # the bot's level on a takeover
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Presence(Base):
    """Open websocket connections, per server process (`instance`), table and seat (-1: spectators).
    Each process refreshes `seen_at` while it runs; rows of a process that died expire."""

    __tablename__ = "presence"

    instance: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    connections: Mapped[int] = mapped_column(Integer)
    visible: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # of which in a tab not hidden
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_presence_table", "table_id"),)


class AuditEntry(Base):
    """What an admin did (the admin page's actions): who, when, what, to which table. No foreign key to the
    table: the entry outlives a table the clean-up deletes."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    who: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    detail: Mapped[str] = mapped_column(Text, default="")

    __table_args__ = (Index("ix_audit_log_at", "at"),)


PLAYERS_CHAT = "players"  # the chat channels of a table: the players' (spectators read it too) and the spectators'
SPECTATORS_CHAT = "spectators"
CHAT_CHANNELS = (PLAYERS_CHAT, SPECTATORS_CHAT)


class ChatMessage(Base):
    """One chat message of a table: its channel, who wrote it (`seat` None: a spectator) under which name, and
    the table's version when it was written (so a replay shows it at its place). An admin may hide it
    (`deleted`); it stays stored."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_chat_messages_table", "table_id", "id"),)
