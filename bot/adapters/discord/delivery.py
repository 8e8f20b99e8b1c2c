"""How what the host says reaches Discord: interaction answers, replies and channel posts.

An interaction must be answered exactly once; anything slow (a board image) is
deferred first, and the deferral fixes whether that first answer is public. So each
command says how it defers, and ``answer`` sends the fitting part of the host's
Response as the interaction's own answer (one message per move, no extra "ok") and
the rest as follow-ups or channel posts.
"""

from __future__ import annotations

import enum
import io
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import discord

from bot.adapters.discord.buttons import view_for
from bot.adapters.discord.pacing import paced, pause
from bot.core.messages import Actor, Post, Response, TurnStart
from bot.core.refusal import Refusal, answered
from bot.texts import input as say
from bot.texts import outages as outage_texts

log = logging.getLogger(__name__)

SOMETHING_WRONG = "Something went wrong; the match is unchanged."
MAX_TEXT = 2000  # Discord's limit for a message's content
# The client's default: nothing pings unless a post names whom (``mentions_of``).
MENTIONS = discord.AllowedMentions.none()


def mentions_of(post: Post) -> discord.AllowedMentions:
    """Exactly the users this post means to ping, by id: never a role, @everyone, or
    anyone whose mention came in with user text."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(int(u)) for u in post.pinged() if u.isdigit()])


# Told when a post that starts a turn (``Post.turn``) is out, with the moment it was
# seen out: the services start that turn's clock then (``Matches.timing.board_posted``).
Posted = Callable[[TurnStart, float], Awaitable[None]]


def out_at(sent: Any) -> datetime:
    """When Discord put out the message it returned: when it was last edited, else when
    it was made (its snowflake); without either, now (the answer just came back)."""
    for name in ("edited_at", "created_at"):
        at = getattr(sent, name, None)
        if isinstance(at, datetime):
            return at
    return discord.utils.utcnow()


def now_of(client: Any) -> float:
    """garnet's own clock (``GarnetBot.now``: the services' clock, virtual in tests),
    else the wall clock."""
    now = getattr(client, "now", None)
    return float(now()) if callable(now) else discord.utils.utcnow().timestamp()


def seen_out(sent: Any, answered_at: float) -> float:
    """When an edited message (the answer that replaces a deferral's "thinking…") is
    out: when the answer to the edit came back, or Discord's own time for it if that
    is later. Discord does not document that such an edit sets ``edited_timestamp``;
    without it the message's creation time is the deferral's, and the upload and any
    wait in between would be charged to the next player. Either way, this is the same."""
    return max(answered_at, out_at(sent).timestamp())


async def _report(posted: Posted | None, post: Post, at: float) -> None:
    """A board that starts a turn is out since ``at``: say so."""
    if posted is None or post.turn is None:
        return
    try:
        await posted(post.turn, at)
    except Exception:  # the turn then starts at the end of its wait: logged there too
        log.exception("could not report the board of match %s", post.turn.match_id)


class UserError(Refusal):
    """Input the adapter refuses before it reaches the host; the message is for the user."""


class Defer(enum.Enum):
    NO = "no"  # fast: answer directly
    PUBLIC = "public"  # slow, and success is a message for the channel
    PRIVATE = "private"  # slow, and the answer is for the asker only
    UPDATE = "update"  # a button: acknowledge silently, then follow up


# ---- who and where ------------------------------------------------------------------


def actor_of(user: discord.Member | discord.User) -> Actor:
    """The person who asks, with what the host needs to judge their rights."""
    if not isinstance(user, discord.Member):
        return Actor(id=str(user.id), name=user.display_name)
    roles = frozenset(str(role.id) for role in user.roles if not role.is_default())
    return Actor(id=str(user.id), name=user.display_name, roles=roles,
                 manage_guild=user.guild_permissions.manage_guild)


def player_of(user: discord.Member | discord.User) -> Actor:
    """Someone named in an option (an opponent, a player of a DM)."""
    if user.bot:
        raise UserError(say.is_a_bot(user.display_name))
    return Actor(id=str(user.id), name=user.display_name)


def where(interaction: discord.Interaction) -> tuple[str, str]:
    """The server and channel (or thread) of an interaction, as the host names them."""
    return str(interaction.guild_id), str(interaction.channel_id)


def channel_for(client: discord.Client, channel_id: str) -> discord.abc.Messageable:
    """A channel to send to: the cached one, else a handle that needs no fetch."""
    channel = client.get_channel(int(channel_id))
    if isinstance(channel, discord.abc.Messageable):
        return channel
    return client.get_partial_messageable(int(channel_id))


# ---- one message --------------------------------------------------------------------


def capped(text: str) -> str:
    """Text as a message's content: never empty, at most Discord's 2,000 characters."""
    text = text or "\u200b"
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _text(post: Post) -> str:
    return capped(post.text)


def _files(post: Post) -> Any:
    """The image, then any other attachments (Discord takes up to 10 files)."""
    items = ([post.image] if post.image is not None else []) + list(post.attachments)
    if not items:
        return discord.utils.MISSING
    # A board's description is what screen readers say of it (at most 1,024 characters).
    return [discord.File(io.BytesIO(item.data), filename=item.filename,
                         description=item.description[:1024] or None)
            for item in items[:10]]


def _view(post: Post) -> Any:
    return view_for(post.buttons, post.selects) or discord.utils.MISSING


# A post discord.py gave up on after its own tries, refused for a rate limit (429) or
# by a fault of Discord's (5xx), is sent again this many times, after Retry-After (or
# 1, 2, 4 s), before it counts as not delivered: neither is a refusal for good.
RESENDS = 3
MAX_WAIT = 60.0  # seconds: a longer Retry-After is not waited for


def _transient(error: discord.HTTPException) -> bool:
    return error.status == 429 or error.status >= 500


def _wait_before(error: discord.HTTPException, attempt: int) -> float:
    headers = getattr(error.response, "headers", None) or {}
    try:
        told = float(headers.get("Retry-After", ""))
    except ValueError:
        told = 0.0
    return told if told > 0 else float(2 ** attempt)


async def resending(send: Callable[[], Awaitable[Any]], where: object) -> Any:
    """``send()``, again after a 429 or a 5xx that outlasted discord.py's retries (each
    call makes its message and files anew); any other refusal, or the last, is raised.
    Returns what the send that went through returned (the message)."""
    for attempt in range(RESENDS + 1):
        try:
            return await send()
        except discord.HTTPException as error:
            if not _transient(error) or attempt == RESENDS:
                raise
            wait = _wait_before(error, attempt)
            if wait > MAX_WAIT:
                raise
            log.warning("a post to %s failed (%s); sending it again in %.1f s (%d of %d)",
                        where, error.status, wait, attempt + 1, RESENDS)
            await pause(wait)
    raise AssertionError("unreachable")


async def send_post(target: discord.abc.Messageable, post: Post,
                    posted: Posted | None = None) -> None:
    """A post in a channel, paced at the post's own ``pace`` (``pacing``); one no longer
    wanted by its turn (``Post.current``) raises ``Withdrawn``."""
    with paced(post.pace, str(getattr(target, "id", "")) or None, post.current):
        sent = await resending(
            lambda: target.send(_text(post), files=_files(post), view=_view(post),
                                allowed_mentions=mentions_of(post)),
            f"channel {getattr(target, 'id', '?')}")
    await _report(posted, post, out_at(sent).timestamp())


async def reply_to(message: discord.Message, post: Post, posted: Posted | None = None) -> None:
    """Answer a message as a reply to it; if its author deleted it meanwhile, as a
    plain message (``fail_if_not_exists: false``, what Discord documents for that)."""
    reference = message.to_reference(fail_if_not_exists=False)
    with paced(post.pace, str(message.channel.id), post.current):
        sent = await resending(
            lambda: message.channel.send(_text(post), files=_files(post), view=_view(post),
                                         allowed_mentions=mentions_of(post),
                                         reference=reference, mention_author=False),
            f"channel {message.channel.id}")
    await _report(posted, post, out_at(sent).timestamp())


# ---- interactions -------------------------------------------------------------------

EPHEMERAL = "ephemeral"
HERE = "here"


def _targets(response: Response, here: str) -> list[tuple[Post, str]]:
    """Each message with where it goes: to the asker only, this channel, or a channel id."""
    items: list[tuple[Post, str]] = []
    for post in ([response.reply] if response.reply else []) + response.posts:
        if post.ephemeral:
            items.append((post, EPHEMERAL))
        elif post.channel_id is None or post.channel_id == here:
            items.append((post, HERE))
        else:
            items.append((post, post.channel_id))
    return items


def _note(items: list[tuple[Post, str]], missed: list[tuple[Post, str]]) -> Post:
    """What the asker is told when everything went to other channels: where, or (a
    channel deleted, say) what could not be posted there."""
    if missed:
        post, target = missed[0]
        return Post(outage_texts.not_posted(target, post.text), ephemeral=True)
    elsewhere = [target for _, target in items]
    return Post(outage_texts.posted_in(elsewhere[0]) if elsewhere else outage_texts.done(),
                ephemeral=True)


async def _post_elsewhere(interaction: discord.Interaction, post: Post, target: str,
                          posted: Posted | None) -> bool:
    """A post to another channel; False when it was refused for good (the bot settles
    the matches of that channel)."""
    try:
        await send_post(channel_for(interaction.client, target), post, posted)
    except discord.HTTPException as error:
        failed = getattr(interaction.client, "post_failed", None)
        if failed is None:
            raise
        log.warning("could not post to channel %s: %s", target, error)
        await failed(target, error)
        return False
    return True


async def _send_initial(interaction: discord.Interaction, post: Post, ephemeral: bool,
                        posted: Posted | None) -> None:
    sent = await interaction.response.send_message(
        _text(post), files=_files(post), view=_view(post), ephemeral=ephemeral,
        allowed_mentions=mentions_of(post))
    await _report(posted, post, out_at(getattr(sent, "resource", None)).timestamp())


async def _edit_original(interaction: discord.Interaction, post: Post,
                         posted: Posted | None) -> None:
    """The first answer of a deferred interaction: it replaces the "thinking…" message
    by editing the original response (what Discord documents; a first follow-up would
    edit it too, but that behaviour is deprecated). The board is out when the edit's
    answer came back (``seen_out``), never at the deferral's time."""
    sent = await resending(
        lambda: interaction.edit_original_response(
            content=_text(post), attachments=_files(post), view=_view(post),
            allowed_mentions=mentions_of(post)),
        f"interaction {interaction.id}")
    await _report(posted, post, seen_out(sent, now_of(interaction.client)))


async def _follow_up(interaction: discord.Interaction, post: Post, ephemeral: bool,
                     posted: Posted | None) -> None:
    sent = await interaction.followup.send(
        _text(post), files=_files(post), view=_view(post), ephemeral=ephemeral,
        allowed_mentions=mentions_of(post), wait=True)
    await _report(posted, post, out_at(sent).timestamp())


async def respond(interaction: discord.Interaction, response: Response, defer: Defer,
                  posted: Posted | None = None) -> None:
    """Send a Response for an interaction that was deferred as ``defer`` says."""
    here = str(interaction.channel_id)
    items = _targets(response, here)
    if not any(target in (EPHEMERAL, HERE) for _, target in items):
        if defer is Defer.NO:  # answered at once: where it goes, then the posts
            items.insert(0, (_note(items, []), EPHEMERAL))
        else:  # the posts first, then the asker hears where they went, or what failed
            missed = [(post, target) for post, target in items
                      if not await _post_elsewhere(interaction, post, target, posted)]
            items = [(_note(items, missed), EPHEMERAL)]
    wanted = {Defer.PUBLIC: HERE, Defer.PRIVATE: EPHEMERAL}.get(defer)
    if defer is Defer.NO:
        first = next(i for i, (_, target) in enumerate(items) if target in (EPHEMERAL, HERE))
    else:
        first = next((i for i, (_, target) in enumerate(items) if target == wanted), -1)
    if first >= 0:
        post, target = items.pop(first)
        if defer is Defer.NO:
            await _send_initial(interaction, post, target == EPHEMERAL, posted)
        else:
            # The first answer takes the place of the "thinking…" message.
            await _edit_original(interaction, post, posted)
    elif defer in (Defer.PUBLIC, Defer.PRIVATE):
        # Nothing fits the deferred message's visibility: drop it, then follow up freely.
        await interaction.delete_original_response()
    for post, target in items:
        if target in (EPHEMERAL, HERE):
            await _follow_up(interaction, post, target == EPHEMERAL, posted)
            continue
        if not await _post_elsewhere(interaction, post, target, posted):
            # A match channel refused for good: the asker hears what it would have said.
            await _follow_up(interaction, _note(items, [(post, target)]), True, None)


async def turn_page(interaction: discord.Interaction,
                    produce: Callable[[], Awaitable[Response]],
                    refusal_in_place: bool = True, fault: str = SOMETHING_WRONG) -> None:
    """A paging button: show another page in the message the button is on.

    A refusal says why not, in place of the page (``refusal_in_place``) or in a
    private message of its own; a fault says ``fault``, privately.
    """
    shown = False  # a page came back, not a refusal

    async def page() -> Response:
        nonlocal shown
        response = await produce()
        shown = True
        return response

    try:
        response = await answered(page)
    except Exception:
        log.exception("paging interaction %s failed", interaction.id)
        response, refusal_in_place = Response.error(fault), False
    post = response.reply
    try:
        if post is None or not (shown or refusal_in_place):
            await interaction.response.send_message(capped(post.text if post else fault),
                                                    ephemeral=True)
            return
        await interaction.response.edit_message(content=_text(post),
                                                view=view_for(post.buttons, post.selects))
    except discord.HTTPException:
        log.warning("could not turn the page for interaction %s", interaction.id)


async def refused_at_once(interaction: discord.Interaction,
                          look: Callable[[], Awaitable[Response]]) -> bool:
    """Run ``look``, a check made before the interaction is acknowledged (in memory:
    nothing read or sent); a refusal it gives is the interaction's one answer, not a
    deferral ("thinking…") and then its edit. Whether it refused."""
    response = await look()
    if response.reply is None:
        return False

    async def refusal() -> Response:
        return response

    await answer(interaction, refusal, Defer.NO)
    return True


async def answer(interaction: discord.Interaction, produce: Callable[[], Awaitable[Response]],
                 defer: Defer, posted: Posted | None = None) -> Response | None:
    """Run one request for an interaction and answer it, whatever happens.

    Returns the host's Response, or None when the request never reached the host.
    """
    if interaction.guild_id is None:
        await interaction.response.send_message("garnet works in server channels only.",
                                                ephemeral=True)
        return None
    try:
        if defer in (Defer.PUBLIC, Defer.PRIVATE):
            await interaction.response.defer(ephemeral=defer is Defer.PRIVATE, thinking=True)
        elif defer is Defer.UPDATE:
            await interaction.response.defer()
    except discord.HTTPException:
        # Too late to answer (the interaction expired): do nothing the asker cannot see.
        log.warning("could not acknowledge interaction %s in time", interaction.id)
        return None
    try:
        response = await answered(produce)
    except Exception:
        log.exception("interaction %s failed", interaction.id)
        response = Response.error(SOMETHING_WRONG)
    try:
        await respond(interaction, response, defer, posted)
    except discord.HTTPException:
        log.exception("could not deliver the answer to interaction %s", interaction.id)
    return response
