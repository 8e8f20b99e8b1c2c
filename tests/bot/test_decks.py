"""The decks of Sigma Escape on a server: added by hosts from a file (checked with the
engine's precise errors, bounded), listed, shown, removed, used by ``deck:`` and kept
with the match; one server's decks are invisible to another."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

from sqlalchemy import select

from bot.core.requests import Asker
from bot.store.models import Match
from engine.balance import SHIPPED_BALANCE
from engine.registry import get_game
from engine.sigma.deck import shipped_deck
from tests.bot.conftest import Harness, console_for

PNG = b"\x89PNG"


def _deck_file(folder: Path, name: str = "mydeck.json", **changes: object) -> Path:
    # The third reconstruction: a deck under the rules page's own settlements.
    data = shipped_deck("reconstructed-v3").to_data() | {"name": "My **own** <@1> deck"}
    data.pop("key")
    data.update(changes)
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _said(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


async def test_a_host_adds_a_deck_and_a_match_is_played_with_it(h: Harness,
                                                                tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    path = _deck_file(tmp_path)
    await console.handle_line(f"bob: /host deck add file:{path}")
    assert _said(out)[-1].startswith("bot (to bob only): Only hosts"), _said(out)[-1]
    await console.handle_line(f"host: /host deck add file:{path}")
    assert _said(out)[-1] == (
        "bot: Deck `mydeck` added: My **own** <@\u200b1> deck (White 10 cards, "
        "Black 9). Start a Sigma Escape match with `deck:mydeck`.")
    await console.handle_line(f"host: /host deck add file:{path}")
    assert "already has a deck `mydeck`" in _said(out)[-1]
    await console.handle_line("alice: /deck list")
    listing = out.getvalue()
    assert ("• `reconstructed` (the default): Reconstructed deck — a reconstruction"
            in listing)
    assert "• `reconstructed-v3`: Reconstructed deck v3 — a reconstruction" in listing
    assert "• `reconstructed-v1`: Reconstructed deck v1 — a reconstruction" in listing
    assert "• `mydeck`: My **own** <@\u200b1> deck" in listing
    # On Discord the deck's own name is plain text: no markdown, no mention.
    shown = (await console.services.decks.listing("console")).reply
    assert shown is not None and "My \\*\\*own\\*\\* \\<@\u200b1\\> deck" in shown.text

    await console.handle_line("alice: /challenge @bob game:sigma deck:MyDeck clock:off")
    assert "deck mydeck (this server's)" in out.getvalue()
    await console.handle_line("bob: /accept")
    async with h.db.session() as s:
        match = (await s.scalars(select(Match))).one()
    assert match.options["deck"]["key"] == "mydeck"
    assert match.options["deck"]["name"] == "My **own** <@1> deck"
    # The match keeps its copy: removing the deck changes nothing for it.
    await console.handle_line("host: /host deck remove name:mydeck")
    assert _said(out)[-1] == ("bot: Deck `mydeck` removed. Matches played with it keep "
                              "their own copy.")
    state = get_game("sigma").new_state(2, match.options)
    assert state.deck.key == "mydeck" and state.deck.hand_size(0) == 10
    # The deck of the match in this channel, on request, for anyone.
    await console.handle_line("carol: /deck show")
    assert "bot (to carol only): Deck `mydeck` (the deck of match #1)" in out.getvalue()


async def test_deck_option_refusals(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line("alice: /challenge @bob game:cairo deck:reconstructed")
    assert _said(out)[-1] == ("bot (to alice only): `deck:` is for Sigma Escape; "
                              "Cairo Corridor is played without cards.")
    await console.handle_line("alice: /challenge @bob game:sigma deck:nosuch")
    assert _said(out)[-1] == ("bot (to alice only): There is no deck 'nosuch' on this server "
                              "(decks: reconstructed, reconstructed-v1, reconstructed-v2, "
                              "reconstructed-v3, reconstructed-v4).")
    await console.handle_line("alice: /deck show")
    assert "ask in the channel of a Sigma Escape match" in _said(out)[-1]
    await console.handle_line("host: /dm game:sigma player1:@a player2:@b chooser:host "
                              "deck:reconstructed")
    assert "deck reconstructed" in out.getvalue()


async def test_bad_deck_files_are_refused_precisely(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    black_in_white = shipped_deck("reconstructed").to_data()["white"]
    black_in_white[2] = black_in_white[2] | {"colour": "black"}
    bad = _deck_file(tmp_path, "bad.json", white=black_in_white)
    await console.handle_line(f"host: /host deck add file:{bad}")
    assert _said(out)[-1] == (
        "bot (to host only): That deck cannot be used: deck file 'bad.json', white hand, "
        "card 3 'L3': a black card in White's hand.")
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 70_000)
    await console.handle_line(f"host: /host deck add file:{big}")
    assert _said(out)[-1] == ("bot (to host only): `file` is a file of at most 64 KB, "
                              "not 68.4 KB.")
    other = tmp_path / "deck.txt"
    other.write_text("name = 'x'")
    await console.handle_line(f"host: /host deck add file:{other}")
    assert "is not a deck file" in _said(out)[-1]
    await console.handle_line(
        f"host: /host deck add file:{_deck_file(tmp_path)} name:reconstructed")
    assert "is the name of a shipped deck" in _said(out)[-1]
    await console.handle_line(f"host: /host deck add file:{_deck_file(tmp_path)} name:my deck!")
    assert "A deck's name is a letter or digit" in _said(out)[-1]
    await console.handle_line(f"host: /host deck add file:{tmp_path / 'missing.toml'}")
    assert "is the path of a file" in _said(out)[-1]
    await console.handle_line("host: /host deck remove name:reconstructed")
    assert "ships with garnet and cannot be removed" in _said(out)[-1]


async def test_a_servers_decks_are_its_own(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line(f"host: /host deck add file:{_deck_file(tmp_path)}")
    assert "Deck `mydeck` added" in _said(out)[-1]
    await console.handle_line("~ server other")
    await console.handle_line("alice: /deck list")
    assert "mydeck" not in _said(out)[-2] + _said(out)[-1]
    await console.handle_line("alice: /challenge @bob game:sigma deck:mydeck")
    assert "There is no deck 'mydeck' on this server" in _said(out)[-1]
    await console.handle_line("alice: /deck show name:mydeck")
    assert "There is no deck 'mydeck' on this server" in _said(out)[-1]
    assert await console.services.decks.choices("other", "") == [
        ("reconstructed (shipped)", "reconstructed"),
        ("reconstructed-v1 (shipped)", "reconstructed-v1"),
        ("reconstructed-v2 (shipped)", "reconstructed-v2"),
        ("reconstructed-v3 (shipped)", "reconstructed-v3"),
        ("reconstructed-v4 (shipped)", "reconstructed-v4")]


async def test_removing_an_unknown_deck_holds_no_connection(h: Harness, tmp_path: Path) -> None:
    # The refusal names the server's decks: read once the removal's session is given
    # back. Opened inside it, that read waited for SQLite's one pooled connection, the
    # removal's own, for 60 s, stalling every server's moves meanwhile.
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line(f"host: /host deck add file:{_deck_file(tmp_path)}")
    await asyncio.wait_for(console.handle_line("host: /host deck remove name:nosuch"), timeout=10)
    assert "There is no deck 'nosuch' on this server" in _said(out)[-1]
    assert "mydeck" in _said(out)[-1]


async def test_a_deck_sheet_on_request(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    response = await console.services.decks.show(
        Asker("console", "console", console.actor("alice")), "reconstructed")
    assert response.reply is not None and response.reply.ephemeral
    assert response.reply.image is not None and response.reply.image.data.startswith(PNG)
    # A shipped deck comes with its measured balance; a server's own deck without one.
    for key in ("reconstructed", "reconstructed-v1", "reconstructed-v2", "reconstructed-v3",
                "reconstructed-v4"):
        shown = await console.services.decks.show(
            Asker("console", "console", console.actor("alice")), key)
        assert shown.reply is not None
        assert f"\nMeasured balance: {SHIPPED_BALANCE[key]}" in shown.reply.text
        # Only the default says it is, and it names its rules variant.
        assert ("(the default deck)" in shown.reply.text) == (key == "reconstructed")
        assert ("open-sides" in shown.reply.text) == (key in ("reconstructed",
                                                              "reconstructed-v4"))
    await console.handle_line(f"host: /host deck add file:{_deck_file(tmp_path)}")
    own = await console.services.decks.show(
        Asker("console", "console", console.actor("alice")), "mydeck")
    assert own.reply is not None and "Measured balance" not in own.reply.text


async def test_a_deck_with_rules_variants_says_so_and_its_match_plays_them(
        h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    path = _deck_file(tmp_path, "open.json", rules=["open-sides"])
    await console.handle_line(f"host: /host deck add file:{path}")
    assert _said(out)[-1].strip() == ("Rules variants (not the rules page's): open-sides: a "
                                      "side is usable only while the cell it points at is "
                                      "empty.")
    shown = await console.services.decks.show(
        Asker("console", "console", console.actor("alice")), "open")
    assert shown.reply is not None and shown.reply.text.endswith(
        "open-sides: a side is usable only while the cell it points at is empty.")
    await console.handle_line("alice: /challenge @bob game:sigma deck:open clock:off")
    await console.handle_line("bob: /accept")
    async with h.db.session() as s:
        match = (await s.scalars(select(Match))).one()
    state = get_game("sigma").new_state(2, match.options)
    assert state.deck.rules == {"open-sides"}
