"""The database schema (SQLAlchemy 2 declarative models).

Portable by design: plain types only (strings for platform ids, integers, floats,
JSON), so the same migrations run on SQLite and PostgreSQL. Platform ids (Discord
snowflakes, console names) are stored as strings because they are names to us, not
numbers, and snowflakes overflow signed 64-bit arithmetic in some drivers.

Clock instants are seconds since the epoch (floats): the host's clock is the only
source of time and it speaks in those.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Named constraints, so that Alembic's batch mode on SQLite and PostgreSQL agree.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Id = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER only


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    """A person as the platform knows them. What they are called is kept per server
    (``MemberName``): a nickname on one server never shows on another. ``name`` is
    the first name seen before names were kept per server, and is not shown."""

    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    # ``/web hide``: a neutral label stands for them on every public page, of every server.
    web_hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class MemberName(Base):
    """What a person is called on one server, refreshed whenever they are named there."""

    __tablename__ = "member_names"

    guild_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))


class GuildSettings(Base):
    """A server's settings. ``host_role`` is a role id: a rename keeps it, and another
    role given the same name does not grant it."""

    __tablename__ = "guild_settings"

    guild_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    host_role: Mapped[str | None] = mapped_column(String(100), nullable=True)
    # The role's name when it was set (for messages), or a name still to be resolved
    # to an id (a HOST_ROLE name, or a role stored by name before ids were kept).
    host_role_name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    # Where garnet tells hosts what needs them (a match it cannot post to, a player who
    # left the server): set with ``/logchannel``; None: the match's own channel.
    log_channel: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The games it changed from the default (``/host games``): "+key" an installed
    # third-party game it offers, "-key" a built-in one it does not, space-separated;
    # None: the built-in games only. An installed package runs code: it is offered
    # only where a server turns it on.
    games: Mapped[str | None] = mapped_column(String(1000), nullable=True)

    # The public pages (``/host web on``): whether they are up, the unguessable part of
    # their address (kept while off: turned on again, the links still work) and the
    # secret a player's page address is made from (``bot.services.web``).
    web_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    web_slug: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True)
    web_salt: Mapped[str | None] = mapped_column(String(64), nullable=True)

    # The language garnet speaks here (``bot.services.languages``): the one a host set
    # (``/host language``), else Discord's server locale as last told, else English;
    # and whether the web pages follow each visitor's browser language instead.
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    discord_locale: Mapped[str | None] = mapped_column(String(8), nullable=True)
    browser_language: Mapped[bool] = mapped_column(Boolean, default=False,
                                                   server_default=false())


class Counter(Base):
    """The last number given to a match or an event of one server. Users name matches
    and events by these per-server numbers (#1, #2, ... in every server); the global
    primary keys stay internal. Taken with an upsert inside the creating transaction,
    so two creations never get the same number."""

    __tablename__ = "counters"

    guild_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # match|event|tournament
    last: Mapped[int] = mapped_column(Integer)


class Match(Base):
    """One game, from the challenge (or the host's start) to its result.

    The clock of the turn in progress is kept here as two numbers: ``turn_elapsed``
    (seconds of this turn already used at the last checkpoint) and ``turn_resumed_at``
    (when it started running again; None while paused or not running). After a
    restart the host adds the time up to the last heartbeat, never the outage.
    """

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)  # per server: what users call it
    channel_id: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))  # "dm" | "casual"
    status: Mapped[str] = mapped_column(String(16))
    seats: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    time_control: Mapped[dict[str, Any]] = mapped_column(JSON)
    hints: Mapped[bool] = mapped_column(Boolean, default=False)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    host_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    chooser: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    turn_elapsed: Mapped[float] = mapped_column(Float, default=0.0)
    turn_resumed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    turn_extra: Mapped[float] = mapped_column(Float, default=0.0)
    # Result: winner seat (None: draw or void), scores per seat, how it ended.
    winner_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    draw: Mapped[bool] = mapped_column(Boolean, default=False)
    scores: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    end_reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    result_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The event the match counts for; None: a casual match or a DM outside any event.
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), nullable=True)

    players: Mapped[list[MatchPlayer]] = relationship(
        back_populates="match", order_by="MatchPlayer.order", lazy="selectin"
    )

    __table_args__ = (
        Index("ix_matches_status_channel", "status", "channel_id"),
        Index("ix_matches_guild_finished", "guild_id", "finished_at"),
        Index("ix_matches_event_status", "event_id", "status"),
        UniqueConstraint("guild_id", "number", name="uq_matches_guild_number"),
    )


class MatchPlayer(Base):
    """A player of a match. ``order`` is the order they were named in; ``seat`` is
    set once the first player is chosen (seat 0 moves first)."""

    __tablename__ = "match_players"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    order: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    banks_left: Mapped[int] = mapped_column(Integer, default=0)
    time_used: Mapped[float] = mapped_column(Float, default=0.0)
    out: Mapped[bool] = mapped_column(Boolean, default=False)

    match: Mapped[Match] = relationship(back_populates="players")

    __table_args__ = (
        UniqueConstraint("match_id", "user_id"),
        Index("ix_match_players_user", "user_id", "match_id"),
    )


class Move(Base):
    """An accepted move, or a seat leaving a game of more than two (``kind`` "out").
    (match_id, ply) is unique: a second writer of the same ply fails instead of
    forking the game. The game state is never stored: it is these rows replayed."""

    __tablename__ = "moves"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8), default="move")
    notation: Mapped[str] = mapped_column(String(32))
    elapsed: Mapped[float] = mapped_column(Float)
    banks_spent: Mapped[int] = mapped_column(Integer, default=0)
    at: Mapped[float] = mapped_column(Float)
    message_id: Mapped[str | None] = mapped_column(String(64), nullable=True)

    __table_args__ = (UniqueConstraint("match_id", "ply"),)


class LedgerEntry(Base):
    """One change of a balance. Balances are sums of entries; ``key`` makes a booking
    idempotent (e.g. ``match:17:reward``): booking it twice fails on the constraint."""

    __tablename__ = "ledger_entries"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    amount: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    note: Mapped[str] = mapped_column(Text, default="")
    author_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), nullable=True
    )
    key: Mapped[str | None] = mapped_column(String(100), nullable=True, unique=True)
    at: Mapped[float] = mapped_column(Float)
    # Balances are kept per (server, event); None is the server's garnets outside events.
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), nullable=True)

    __table_args__ = (
        Index("ix_ledger_guild_user", "guild_id", "user_id"),
        # Covers a balance and the garnets leaderboard: sums without reading the rows.
        Index("ix_ledger_scope_user", "guild_id", "event_id", "user_id", "amount"),
    )


class HostAction(Base):
    """The log of what hosts did to matches (pause, void, adjudicate, ...), with why."""

    __tablename__ = "host_actions"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    actor_id: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    detail: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[float] = mapped_column(Float)
    # How many moves (rows of ``moves``) the match had when the host acted.
    ply: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Heartbeat(Base):
    """When the owner of each lease (``shard:3/8``) was last known alive: whoever runs
    those matches next never charges players for the time no one ran them. (Rows
    written before leases are keyed by INSTANCE_NAME, read once as a fallback.)"""

    __tablename__ = "heartbeats"

    instance: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class Lease(Base):
    """Which bot process runs the matches of a shard (``shard:3/8``; ``shard:0/1`` for
    one process), until when: one owner per match (``bot.services.leases``)."""

    __tablename__ = "leases"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    owner: Mapped[str] = mapped_column(String(255))  # instance/pid@host#token
    instance: Mapped[str] = mapped_column(String(64))
    pid: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(255))
    since: Mapped[float] = mapped_column(Float)  # held by this owner since
    expires_at: Mapped[float] = mapped_column(Float)


class Event(Base):
    """A season of a game on one server: its players earn and trade garnets in it.

    ``confiscate`` says what happens to the loser's garnets when a DM of the event
    ends: "no" (kept), "winner" (moved to the winner) or "remove" (taken away);
    ``eliminate`` whether the loser is out of the event.
    """

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)  # per server, like a match's
    name: Mapped[str] = mapped_column(String(100))
    reward: Mapped[int] = mapped_column(Integer)
    transfers: Mapped[bool] = mapped_column(Boolean, default=False)
    confiscate: Mapped[str] = mapped_column(String(16), default="no")
    # The loser of a DM of the event is eliminated from it (an online Genius season);
    # without, players meet in DMs again and again (garnets and standings only).
    eliminate: Mapped[bool] = mapped_column(Boolean, default=True)
    # When a DM of the event ends, the computer's review is posted in its channel.
    review: Mapped[bool] = mapped_column(Boolean, default=False)
    open: Mapped[bool] = mapped_column(Boolean, default=True)
    created_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (
        UniqueConstraint("guild_id", "name"),
        UniqueConstraint("guild_id", "number", name="uq_events_guild_number"),
        Index("ix_events_guild_open", "guild_id", "open"),
    )


class EventPlayer(Base):
    """A player of an event with their priority (1 is the highest). A transfer or a
    confiscation first writes this row, which serialises everything that spends the
    player's garnets (a row lock on PostgreSQL, the write lock on SQLite)."""

    __tablename__ = "event_players"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    priority: Mapped[int] = mapped_column(Integer)
    added_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("event_id", "user_id"),)


class Rating(Base):
    """A player's OpenSkill rating in one game on one server. ``ordinal`` (mu - 3 sigma)
    is what leaderboards sort by; it is stored so that an index can sort it."""

    __tablename__ = "ratings"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    game: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("guild_id", "game", "user_id"),
        Index("ix_ratings_board", "guild_id", "game", "ordinal"),
    )


class RatingChange(Base):
    """What one match did to one player's rating. (match_id, user_id) is unique: a
    match is rated once, however often its result is booked."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    game: Mapped[str] = mapped_column(String(32))
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("match_id", "user_id"),)


class MatchResult(Base):
    """Each player's result in a finished match ("won", "lost" or "drawn"), with the
    match's server, event and game copied beside it: standings are one indexed scan,
    without joining 10,000 matches to their players. Written with the result, once
    ((match_id, user_id) is unique)."""

    __tablename__ = "match_results"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    guild_id: Mapped[str] = mapped_column(String(64))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), nullable=True)
    game: Mapped[str] = mapped_column(String(32))
    outcome: Mapped[str] = mapped_column(String(8))
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("match_id", "user_id"),
        # One event's (or no event's) standings; and the whole server's.
        Index("ix_match_results_scope", "guild_id", "event_id", "user_id", "game", "outcome"),
        Index("ix_match_results_guild", "guild_id", "user_id", "game", "outcome"),
    )


class Tournament(Base):
    """A tournament on one server: its rules, fixed at creation, and where it stands.

    ``options`` are the pure core's ``Options`` (format rules: rounds, best-of, the
    first-player rule, ...); ``settings`` what the host adds around them: the time
    control and game options of every match, threads, the round deadline and what
    settles it, prizes, check-in, whether rounds start by themselves. What happened
    is its log (``TournamentLog``), from which the core rebuilds every round.
    ``deadline_at``: the current round's deadline (None: none, or no round open).
    """

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)  # per server, like a match's
    name: Mapped[str] = mapped_column(String(100))
    game: Mapped[str] = mapped_column(String(32))
    format: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))  # open | running | finished | cancelled
    channel_id: Mapped[str] = mapped_column(String(64))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), nullable=True)
    created_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    deadline_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    reminded: Mapped[bool] = mapped_column(Boolean, default=False)

    __table_args__ = (
        UniqueConstraint("guild_id", "number", name="uq_tournaments_guild_number"),
        Index("ix_tournaments_guild_status", "guild_id", "status"),
    )


class TournamentPlayer(Base):
    """An entrant. ``seed`` is given at the start (1 the top seed); before it, None."""

    __tablename__ = "tournament_players"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)


class TournamentLog(Base):
    """What happened in a tournament, in order: the core's events as JSON (a round as
    paired, a result, a withdrawal, a reinstatement), with who caused it and why.
    The core rebuilds pairings and standings from these rows alone."""

    __tablename__ = "tournament_log"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    author_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)


class TournamentGame(Base):
    """A match played for a pairing: game ``game_no`` of the series on ``board`` of
    ``round``. A voided match is replayed: another row with the same game number."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    game_no: Mapped[int] = mapped_column(Integer)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          unique=True)

    __table_args__ = (Index("ix_tournament_games_pairing", "tournament_id", "round", "board"),)


class LifeToken(Base):
    """A Token of Life given (+1) or taken (-1) in an event, with why and by whom, like
    the ledger: a player's tokens are the sum of their entries."""

    __tablename__ = "life_tokens"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    amount: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text, default="")
    author_id: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_life_tokens_event_user", "event_id", "user_id"),)


class Elimination(Base):
    """A player out of an event: the loser of one of its Death Matches (``match_id``,
    written with the result, once). A host may undo it (``undone_at``)."""

    __tablename__ = "eliminations"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), nullable=True, unique=True)
    at: Mapped[float] = mapped_column(Float)
    undone_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    undone_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")

    __table_args__ = (Index("ix_eliminations_event_user", "event_id", "user_id"),)


class Nomination(Base):
    """A Death Match waiting for its opponent: a host named the nominator (the main
    match's loser), who picks an opponent; ``settings`` are the DM's (game options,
    time control, thread, hints, reward). ``status``: open | done | cancelled."""

    __tablename__ = "nominations"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    nominator_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    host_id: Mapped[str] = mapped_column(String(64))
    channel_id: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(32))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), nullable=True)

    __table_args__ = (Index("ix_nominations_event_status", "event_id", "status"),)


class ServerDeck(Base):
    """A deck of Sigma Escape a host added to one server (``/host deck add``): its checked
    data as ``Deck.to_data`` writes it, under a name unique on the server (``key``, in
    lower case). A match keeps its own copy in its options, so removing a deck never
    changes a match that was played with it."""

    __tablename__ = "server_decks"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    author_id: Mapped[str] = mapped_column(String(64))
    added_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("guild_id", "key", name="uq_server_decks_guild_key"),)


class MatchReview(Base):
    """A finished match's review by the computer (``/review``, an event's automatic
    review), stored when it is first computed: a second ``/review`` and the match's web
    page read it here, and nothing analyses the match again. ``data`` is
    ``engine.ai.review.Review.to_data``: the win chance at every position (the
    evaluation of each ply) and each move's judgement, from which the notes are said."""

    __tablename__ = "match_reviews"

    guild_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[int] = mapped_column(Id, ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True, autoincrement=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
