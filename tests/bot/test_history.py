"""Match history: a player's matches page by page, one match in full, its replay."""

from __future__ import annotations

import io
import random
from collections.abc import Awaitable
from pathlib import Path

from PIL import Image
from sqlalchemy import select

from bot.core.enums import DONE
from bot.core.messages import Actor, Response
from bot.core.refusal import answered
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services import history, history_queries, history_view
from bot.services.history_queries import MatchMove, match_record, player_history
from bot.services.history_view import match_texts
from bot.services.users import remember
from bot.store.models import Match, MatchPlayer, Move
from bot.store.numbers import next_number
from tests.bot.conftest import ALICE, BOB, GUILD, HOSTY, Harness, console_for

T0 = 1_700_000_000.0


async def ask(request: Awaitable[Response]) -> Response:
    """A request answered as the adapters answer it: a refusal becomes its Response."""
    return await answered(lambda: request)


async def add_match(h: Harness, users: list[str], *, status: str = "finished",
                    winner: int | None = 0, finished_at: float = T0, game: str = "cairo",
                    guild: str = GUILD, scores: list[int] | None = None, end: str = "rules",
                    draw: bool = False, moves: int = 0, out: tuple[int, ...] = (),
                    kind: str = "casual") -> int:
    """A match written straight to the database (seat = position in ``users``)."""
    async with h.db.session() as s, s.begin():
        await remember(s, guild, [Actor(uid, uid.capitalize()) for uid in users])
        match = Match(guild_id=guild, number=await next_number(s, guild, "match"),
                      channel_id="c1", game=game, kind=kind, status=status,
                      seats=len(users), options={}, time_control={}, created_at=T0,
                      started_at=T0, finished_at=finished_at if status in DONE
                      else None, winner_seat=winner if status == "finished" else None,
                      draw=draw, scores=scores, end_reason=end if status == "finished"
                      else "void" if status == "voided" else None)
        s.add(match)
        await s.flush()
        for seat, uid in enumerate(users):
            s.add(MatchPlayer(match_id=match.id, user_id=uid, order=seat, seat=seat,
                              accepted=True, out=seat in out))
        for ply in range(1, moves + 1):
            s.add(Move(match_id=match.id, ply=ply, seat=(ply - 1) % 2, notation="DL",
                       elapsed=1.0, at=T0 + ply))
        return match.number


# ---- a player's matches -----------------------------------------------------------------


async def test_history_pages_newest_first(h: Harness) -> None:
    order = list(range(23))
    random.Random(3).shuffle(order)  # finished in another order than created
    ids = {await add_match(h, ["alice", "bob"], finished_at=T0 + 3600 * k): k for k in order}
    newest_first = sorted(ids, key=lambda i: -ids[i])
    pages = [await player_history(h.db, GUILD, "alice", page) for page in (1, 2, 3)]
    assert [[e.number for e in p.entries] for p in pages] == [
        newest_first[:10], newest_first[10:20], newest_first[20:]]
    assert {(p.total, p.pages) for p in pages} == {(23, 3)}
    past = await player_history(h.db, GUILD, "alice", 4)
    assert past.entries == () and past.total == 23

    first = await ask(history.history(h.db, GUILD, "alice"))
    assert first.reply is not None and first.reply.ephemeral
    assert first.reply.text.startswith("**Alice's matches** — 23 · page 1 of 3")
    assert [(b.label, b.custom_id) for b in first.reply.buttons] == [
        ("Page 2 ▶", "garnet:hist:alice:2")]
    middle = await ask(history.history(h.db, GUILD, "alice", page=2))
    assert middle.reply is not None
    assert [b.custom_id for b in middle.reply.buttons] == [
        "garnet:hist:alice:1", "garnet:hist:alice:3"]
    last = await ask(history.history(h.db, GUILD, "alice", page=3))
    assert last.reply is not None and [b.label for b in last.reply.buttons] == ["◀ Page 2"]
    assert last.reply.text.count("`#") == 3

    beyond = await ask(history.history(h.db, GUILD, "alice", page=4))
    assert beyond.reply is not None and beyond.reply.ephemeral
    assert beyond.reply.text == "There is no page 4: Alice's history has 3 pages (23 matches)."
    zero = await ask(history.history(h.db, GUILD, "alice", page=0))
    assert zero.reply is not None and zero.reply.text == "Pages are numbered from 1."


async def test_history_holds_only_this_servers_matches_that_were_played_out(h: Harness) -> None:
    played = await add_match(h, ["alice", "bob"], finished_at=T0 + 10)
    voided = await add_match(h, ["bob", "alice"], status="voided", finished_at=T0 + 20)
    await add_match(h, ["alice", "bob"], guild="elsewhere", finished_at=T0 + 30)
    await add_match(h, ["alice", "carol"], status="running")
    await add_match(h, ["alice", "carol"], status="declined")
    quoridor = await add_match(h, ["alice", "dave"], game="quoridor", finished_at=T0 + 5)
    page = await player_history(h.db, GUILD, "alice")
    assert [e.number for e in page.entries] == [voided, played, quoridor]
    only = await player_history(h.db, GUILD, "alice", game="quoridor")
    assert [e.number for e in only.entries] == [quoridor] and only.total == 1
    filtered = await ask(history.history(h.db, GUILD, "alice", game="Quoridor"))
    assert filtered.reply is not None
    assert filtered.reply.text.startswith("**Alice's matches of Quoridor** — 1")
    assert filtered.reply.buttons == ()
    unknown = await ask(history.history(h.db, GUILD, "alice", game="chess"))
    assert unknown.reply is not None and "Unknown game 'chess'" in unknown.reply.text
    none = await ask(history.history(h.db, GUILD, "carol"))
    assert none.reply is not None
    assert none.reply.text == "Carol has no finished matches on this server yet."


async def test_each_player_sees_their_own_result_and_how(h: Harness) -> None:
    await add_match(h, ["alice", "bob"], winner=0, end="timeout", finished_at=T0 + 1)
    await add_match(h, ["bob", "alice"], winner=0, end="resign", finished_at=T0 + 2)
    await add_match(h, ["alice", "bob"], winner=None, draw=True, end="adjudicated",
                    finished_at=T0 + 3)
    await add_match(h, ["alice", "bob"], status="voided", finished_at=T0 + 4)
    await add_match(h, ["bob", "alice"], winner=0, scores=[15, 8], moves=3,
                    finished_at=T0 + 5)
    await add_match(h, ["alice", "bob", "carol", "dave"], game="quoridor", winner=2,
                    out=(0,), finished_at=T0 + 6)
    alice = await player_history(h.db, GUILD, "alice")
    assert [(e.result, e.how, e.scores) for e in alice.entries] == [
        ("lost", "out", None), ("lost", "rules", (8, 15)), ("void", "void", None),
        ("draw", "adjudicated", None), ("lost", "resign", None), ("won", "timeout", None)]
    assert alice.entries[0].opponents == ("Bob", "Carol", "Dave")
    assert alice.entries[1].moves == 3
    bob = await player_history(h.db, GUILD, "bob")
    assert [(e.result, e.scores) for e in bob.entries[1:3]] == [("won", (15, 8)), ("void", None)]
    lines = history_view.history_text(alice).splitlines()[1:-1]
    assert [line.split(" — ", 1)[1] for line in lines] == [
        "**lost** (left the game) vs Bob, Carol, Dave · 0 moves",
        "**lost** 8–15 vs Bob · 3 moves",
        "**void** vs Bob · 0 moves",
        "**draw** by the host's decision vs Bob · 0 moves",
        "**lost** by resignation vs Bob · 0 moves",
        "**won** on time vs Bob · 0 moves",
    ]
    assert lines[0].startswith("`#6` 14 Nov 2023 · Quoridor — ")


# ---- one match in full ------------------------------------------------------------------


async def played_match(h: Harness) -> int:
    """Alice (Black) and Bob play three moves, a host pauses in between, Bob resigns."""
    match_id = await h.casual("cairo", first="me")
    await h.clock.advance(12)
    await h.play(ALICE, "D left")
    await h.clock.advance(75)  # 15 s into the reserve: 3 banks
    await h.play(BOB, "JU")
    await h.host.controls.pause(Asker(GUILD, "c1", HOSTY), match_id, "phone call")
    await h.clock.advance(600)
    await h.host.controls.resume(Asker(GUILD, "c1", HOSTY), match_id)
    await h.clock.advance(3.5)
    await h.play(ALICE, "w-up")
    await h.host.play.resign(Asker(GUILD, "c1", BOB), match_id)
    return match_id


async def test_a_match_in_full_with_the_time_of_every_move(h: Harness) -> None:
    match_id = await played_match(h)
    record = await match_record(h.db, GUILD, match_id)
    assert record is not None
    assert [(m.notation, round(m.seconds, 1), m.banks_spent) for m in record.moves] == [
        ("DL", 12.0, 0), ("JU", 75.0, 3), ("WU", 3.5, 0)]
    assert [(p.name, p.colour, p.result) for p in record.players] == [
        ("Alice", "Black", "won"), ("Bob", "Red", "lost")]
    assert [(a.action, a.after_ply, a.detail) for a in record.actions] == [
        ("pause", 2, "phone call"), ("resume", 2, "")]
    (text,) = match_texts(record)
    assert text.splitlines()[:3] == [
        f"**Match #{match_id}: Cairo Corridor** — finished 14 Nov 2023",
        "Black: Alice · **won** by resignation · 0:15 used, 36 banks left",
        "Red: Bob · **lost** by resignation · 1:15 used, 33 banks left",
    ]
    assert "🏆 **Alice wins Match #1** — Bob resigned." in text  # names, not pings
    assert "<@" not in text
    assert "Host, after move 2: Hosty — pause: phone call" in text
    assert "```\n1. DL 0:12     2. JU 1:15+3\n3. WU 0:03\n```" in text

    shown = await ask(history.show_match(h.db, h.host.renderer, GUILD, match_id))
    assert shown.reply is not None and shown.reply.ephemeral and shown.posts == []
    assert shown.reply.text == text
    assert shown.reply.image is not None
    assert shown.reply.image.filename == f"match-{match_id}-cairo.png"
    final = Image.open(io.BytesIO(shown.reply.image.data))
    assert final.format == "PNG"


async def test_host_actions_are_placed_by_the_moves_played_not_by_the_clock(
        h: Harness) -> None:
    """Actions and moves in the same second (a quick host, the console) are each placed
    after the moves made before them; one before any move is said so."""
    match_id = await h.casual("cairo", first="me")
    asker = Asker(GUILD, "c1", HOSTY)
    await h.host.controls.extend(asker, match_id, 30)
    await h.play(ALICE, "D left")
    await h.host.controls.pause(asker, match_id, "phone call")
    await h.host.controls.resume(asker, match_id)
    await h.play(BOB, "JU")
    await h.play(ALICE, "w-up")
    await h.host.controls.extend(asker, match_id, 30)
    record = await match_record(h.db, GUILD, match_id)
    assert record is not None
    assert [(a.action, a.after_ply) for a in record.actions] == [
        ("extend", 0), ("pause", 1), ("resume", 1), ("extend", 3)]
    (text,) = match_texts(record)
    assert "Host, before the first move: Hosty — extend: 30 s" in text
    assert "Host, after move 1: Hosty — pause: phone call" in text
    assert "Host, after move 1: Hosty — resume" in text
    assert "Host, after move 3: Hosty — extend: 30 s" in text


async def test_match_of_an_unknown_id_or_another_server(h: Harness) -> None:
    match_id = await add_match(h, ["alice", "bob"], guild="elsewhere")
    for asked in (match_id, 999):
        for answer in (await ask(history.show_match(h.db, h.host.renderer, GUILD, asked)),
                       await ask(history.replay(h.db, h.host.renderer, GUILD, asked))):
            assert answer.reply is not None and answer.reply.ephemeral
            assert answer.reply.text == f"There is no match #{asked} on this server."
            assert answer.reply.image is None


async def test_a_running_match_shows_its_moves_so_far_but_has_no_replay(h: Harness) -> None:
    match_id = await h.casual("cairo", first="me")
    await h.clock.advance(5)
    await h.play(ALICE, "D left")
    shown = await ask(history.show_match(h.db, h.host.renderer, GUILD, match_id))
    assert shown.reply is not None and shown.reply.image is not None
    assert "in progress (running), 1 moves so far" not in shown.reply.text
    assert "in progress (running), 1 move so far" in shown.reply.text
    assert "```\n1. DL 0:05\n```" in shown.reply.text
    refused = await ask(history.replay(h.db, h.host.renderer, GUILD, match_id))
    assert refused.reply is not None and refused.reply.ephemeral
    assert refused.reply.text.startswith(f"Match #{match_id} is still being played")


async def test_a_declined_challenge_was_never_played(h: Harness) -> None:
    match_id = await add_match(h, ["alice", "bob"], status="declined")
    shown = await ask(history.show_match(h.db, h.host.renderer, GUILD, match_id))
    assert shown.reply is not None and shown.reply.image is None
    assert shown.reply.text == (f"**Match #{match_id}: Cairo Corridor** between Alice and Bob "
                                "never started: it was declined.")
    refused = await ask(history.replay(h.db, h.host.renderer, GUILD, match_id))
    assert refused.reply is not None and "never played" in refused.reply.text


def test_a_long_match_is_cut_into_messages_of_whole_lines() -> None:
    moves = tuple(MatchMove(ply, (ply - 1) % 2, "move", "e3h", 61.0 + ply, ply % 3, T0)
                  for ply in range(1, 301))
    record = history_queries.MatchRecord(
        id=5, number=5, guild_id=GUILD, channel_id="c1", game="quoridor", kind="casual",
        status="finished", seats=2, options={}, time_control=TimeControl(),
        reward=None, hints=False, rated=True, created_at=T0, started_at=T0, finished_at=T0,
        winner_seat=0, draw=False, scores=None, end_reason="rules", result_text=None,
        players=(history_queries.MatchSeat("alice", "Alice", 0, "White", 10.0, 3, False, "won"),
                 history_queries.MatchSeat("bob", "Bob", 1, "Black", 10.0, 3, False, "lost")),
        moves=moves, actions=())
    messages = match_texts(record)
    assert len(messages) > 1
    assert all(len(m) <= 2000 for m in messages)
    assert all(m.count("```") == 2 for m in messages)
    numbers = [int(cell.split(".")[0]) for m in messages
               for line in m.split("```")[1].strip().splitlines()
               for cell in line.split("   ") if cell.strip()]
    assert numbers == list(range(1, 301))
    assert "100. e3h 2:41+1" in messages[0] + messages[1] + messages[2]


# ---- replays ------------------------------------------------------------------------------


def gif_frames(data: bytes) -> int:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return int(getattr(image, "n_frames", 1))


async def test_replay_posts_the_animation_in_the_channel(h: Harness) -> None:
    match_id = await played_match(h)
    answer = await ask(history.replay(h.db, h.host.renderer, GUILD, match_id))
    assert answer.reply is not None and not answer.reply.ephemeral
    assert answer.reply.channel_id is None  # here, where it was asked
    assert answer.reply.text == (
        f"**Replay of Match #{match_id}: Cairo Corridor** — Alice (Black) vs Bob (Red)\n"
        "Alice (Black) wins by resignation · 3 moves")
    image = answer.reply.image
    assert image is not None and image.filename == f"match-{match_id}-cairo.gif"
    assert gif_frames(image.data) == 3 + 1


async def test_a_voided_match_replays_to_the_void(h: Harness) -> None:
    match_id = await h.casual("cairo", first="me")
    await h.play(ALICE, "D left")
    await h.host.controls.void(Asker(GUILD, "c1", HOSTY), match_id, "wrong players")
    answer = await ask(history.replay(h.db, h.host.renderer, GUILD, match_id))
    assert answer.reply is not None and answer.reply.image is not None
    assert "Voided by the host · 1 move" in answer.reply.text
    assert gif_frames(answer.reply.image.data) == 2


async def test_a_dm_voided_before_it_started_has_nothing_to_replay(h: Harness) -> None:
    """Issue 28, item 10: a DM voided before anyone had a seat was replayed as
    "Ivan (None) vs Judy (None)", an animation of an empty board."""
    match_id = await add_match(h, ["ivan", "judy"], status="voided", kind="dm")
    async with h.db.session() as s, s.begin():
        for player in (await s.execute(select(MatchPlayer))).scalars():
            player.seat = None
    refused = await ask(history.replay(h.db, h.host.renderer, GUILD, match_id))
    assert refused.reply is not None and refused.reply.image is None
    assert "None" not in refused.reply.text
    assert refused.reply.text == (f"DM #{match_id} ended before its first move, so there is "
                                  "nothing to replay. Voided by the host.")


def test_a_replay_names_a_player_without_a_seat_without_a_colour() -> None:
    assert history_view.say.replay_text(label="DM #3", game="Cairo Corridor",
                                        players=[("Ivan", None), ("Judy", "Red")],
                                        caption="Judy (Red) wins", moves=1) == (
        "**Replay of DM #3: Cairo Corridor** — Ivan vs Judy (Red)\nJudy (Red) wins · 1 move")
    assert history_view.say.caption(voided=False, winner="Ivan", colour=None,
                                    end_reason="forfeit", scores=None).startswith("Ivan wins")


async def test_console_history_match_and_replay(h: Harness, tmp_path: Path) -> None:
    for _ in range(11):
        await add_match(h, ["alice", "bob"], guild="console")
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out, hosts=("hosty",))
    for line in ("alice: /challenge @bob game:cairo first:me", "bob: /accept",
                 "alice: D left", "bob: JU", "alice: w-up", "bob: /resign"):
        await console.handle_line(line)
    start = len(out.getvalue())
    await console.handle_line("carol: /history @alice")
    await console.handle_line("carol: /match id:12")
    await console.handle_line("carol: /replay 12")
    await console.handle_line("carol: /match 99")
    await console.handle_line("carol: /history player:@bob page:9")
    shown = out.getvalue()[start:]
    lines = shown.splitlines()
    assert lines[0] == "bot (to carol only): **alice's matches** — 12 · page 1 of 2, newest first"
    assert lines[1].startswith("     `#12` ") and "**won** by resignation vs bob" in lines[1]
    assert "[Page 2 ▶: /history player:@alice page:2]" in shown
    assert "bot (to carol only): **Match #12: Cairo Corridor** — finished" in shown
    assert "     1. DL 0:00   2. JU 0:00" in lines
    replay = [line.strip() for line in lines if line.strip().startswith("[image:")]
    assert [r.rsplit(".", 1)[1] for r in replay] == ["png]", "gif]"]  # /match, /replay
    assert gif_frames(Path(replay[1][len("[image: "):-1]).read_bytes()) == 4
    assert "bot (to carol only): There is no match #99 on this server." in lines
    assert ("bot (to carol only): There is no page 9: bob's history has 2 pages "
            "(12 matches).") in lines


async def test_user_names_come_from_the_store_for_this_server_only(h: Harness) -> None:
    await add_match(h, ["alice", "bob"])
    await add_match(h, ["alice", "bob"], guild="g2")
    async with h.db.session() as s, s.begin():
        await remember(s, "g2", [Actor("bob", "Bobby on g2")])
    # The nickname Bob has on g2 never shows on this server.
    page = await player_history(h.db, GUILD, "alice")
    assert page.entries[0].opponents == ("Bob",)
    page = await player_history(h.db, "g2", "alice")
    assert page.entries[0].opponents == ("Bobby on g2",)


def test_a_long_header_and_many_moves_stay_within_the_limit() -> None:
    head = [f"line {i} " + "x" * 140 for i in range(20)]  # 3,000 characters of header
    moves = [f"{i:>3}. e3h 0:12" for i in range(1, 401)]
    messages = history_view._pack(head, moves)
    assert all(len(m) <= 2000 for m in messages)
    text = "\n".join(messages)
    assert [line for line in text.splitlines() if line.startswith("line ")] == head
    assert [line for line in text.splitlines() if line.endswith("e3h 0:12")] == moves
    assert all(m.count("```") in (0, 2) for m in messages)
