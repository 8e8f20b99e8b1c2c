"""Text no database can store (a lone surrogate, half of an emoji's pair, which
Discord's JSON can carry but no UTF-8 encodes; NUL, which PostgreSQL's text refuses) is
refused where it comes in, in every text option, on both adapters, with a sentence of
``bot.texts.input``: never a fault, never "Something went wrong"."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands import COMMANDS
from bot.commands.spec import Command, Kind, Option, storable
from bot.core.refusal import Refusal
from bot.texts import input as say
from tests.bot.conftest import Harness, console_for
from tests.bot.discord_fake import ALICE, HANA
from tests.discord_bot import World, sends, sub

BROKEN = ("a\ud83db", "\udc31cat", "Cup\x00", "\x00")  # half an emoji, NUL
REFUSED_EVENT = say.unstorable("event")


@pytest.mark.parametrize("typed", BROKEN)
async def test_discord_refuses_a_broken_character_in_a_text_option(
        world: World, typed: str) -> None:
    (answer,) = sends(await world.slash(ALICE, "ledger", event=typed))
    assert answer.content == REFUSED_EVENT and answer.ephemeral
    (answer,) = sends(await sub(world, HANA, "host tournament", "create", name=typed,
                                game="cairo", format="swiss"))
    assert answer.content == say.unstorable("name")
    (answer,) = sends(await sub(world, HANA, "tournament", "standings", tournament=typed))
    assert answer.content == say.unstorable("tournament")


async def test_discord_autocomplete_of_a_broken_character_offers_nothing(
        world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Spring Cup")
    for typed in BROKEN:
        (call,) = await sub(world, HANA, "event", "info", focused="event", event=typed)
        assert call.callback_type == 8 and call.body["data"]["choices"] == []
    (call,) = await sub(world, HANA, "event", "info", focused="event", event="spr")
    assert [c["value"] for c in call.body["data"]["choices"]] == ["1"]  # still offers


@pytest.mark.parametrize("typed", BROKEN)
async def test_the_console_refuses_a_broken_character_in_a_text_option(
        h: Harness, tmp_path: Path, typed: str) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line(f"alice: /ledger event:{typed}")
    await console.handle_line(f"host: /host event create name:{typed}")
    await console.handle_line(f"host: /host priority order players:@bob {typed}")
    assert out.getvalue().splitlines() == [
        f"bot (to alice only): {REFUSED_EVENT}",
        f"bot (to host only): {say.unstorable('name')}",
        f"bot (to host only): {say.unstorable('players')}"]


# Any character: every plane, the surrogates Hypothesis leaves out unless asked, NUL,
# marks that turn text around; and texts far longer than any bound.
CHARACTERS = st.one_of(st.sampled_from("\x00\ud83d\udc31\u202e\u200f\ufeff🐱李a "),
                       st.characters(), st.characters(categories=["Cs"]))
TEXTS = st.one_of(st.text(CHARACTERS, min_size=1, max_size=12),
                  st.text(CHARACTERS, min_size=90, max_size=5000))
TEXT_OPTIONS = [(c, o) for c in COMMANDS for o in c.options
                if o.kind is Kind.TEXT and not o.choices]


@settings(max_examples=300, deadline=None)
@given(where=st.sampled_from(TEXT_OPTIONS), text=TEXTS)
def test_any_text_is_accepted_storable_or_refused_with_a_sentence(
        where: tuple[Command, Option], text: str) -> None:
    _, option = where
    try:
        option.check(text)
    except Refusal as refused:
        assert refused.text in (say.unstorable(option.name),
                                   say.out_of_bounds(option.name, say.most_characters(
                                       option.bounds()[1] or 0), ""))
        return
    assert storable(text) and text.encode("utf-8").decode("utf-8") == text


# A value for each required option that is not the text under test.
SAMPLE = {Kind.USER: "@bob", Kind.USERS: "@bob @carol", Kind.INT: "1", Kind.NUMBER: "1",
          Kind.BOOL: "true", Kind.CHANNEL: "#general", Kind.ROLE: "@Players"}
RUNNABLE = [c for c in COMMANDS if any(o.kind is Kind.TEXT and not o.choices
                                       for o in c.options)
            and not any(o.required and o.kind is Kind.ATTACHMENT for o in c.options)]


def _line(command: Command, text: str) -> str:
    values = []
    for option in command.options:
        if option.kind is Kind.TEXT and not option.choices:
            values.append(f"{option.name}:{text}")
        elif option.required:
            sample = option.choices[0][1] if option.choices else SAMPLE[option.kind]
            values.append(f"{option.name}:{sample}")
    return f"host: /{command.name} {' '.join(values)}"


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(RUNNABLE),
       text=TEXTS.map(lambda t: "".join(" " if c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
                                        else c for c in t)))  # one console line
async def test_any_text_in_any_command_is_answered_never_a_fault(
        h: Harness, command: Command, text: str) -> None:
    out = io.StringIO()
    console = console_for(h, Path(tempfile.gettempdir()) / "garnet-texts", out)
    await console.handle_line(_line(command, text))
    said = out.getvalue()
    assert said and "something went wrong" not in said.lower(), said


@pytest.mark.parametrize("typed", ["²", "#①", "9" * 30])
async def test_a_name_of_odd_digits_is_looked_up_by_name_not_a_fault(
        h: Harness, tmp_path: Path, typed: str) -> None:
    """Digits to ``str.isdigit`` that ``int`` refuses, or more than any database's
    integer holds: a number only when decimal and short (``record_number``)."""
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line(f"alice: /ledger event:{typed}")
    await console.handle_line(f"alice: /tournament info tournament:{typed}")
    said = out.getvalue().splitlines()
    assert said[0] == f"bot (to alice only): There is no event called '{typed}' on this " \
        "server. There are no events yet."
    assert said[1].startswith(f"bot (to alice only): There is no tournament called "
                              f"'{typed}'"), said
