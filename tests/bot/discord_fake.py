"""The Discord fake the tests talk to: ``tests.fake.discord_fake`` (the package holds
it so that ``python -m bot bench`` can drive the bot through it too); see its
docstring for what it models."""

from typing import Any

from tests.fake.discord_fake import *  # noqa: F403
from tests.fake.discord_fake import FakeDiscord, RealTime, settle
from tests.fake.discord_payloads import Payloads
from tests.fake.discord_world import *  # noqa: F403
from tests.fake.discord_world import Person
from tests.fake.fake_transport import VirtualAsyncio

__all__ = ["FakeDiscord", "Payloads", "RealTime", "VirtualAsyncio", "select_menu", "settle"]


def select_menu(fake: FakeDiscord, person: Person, message: dict[str, Any], custom_id: str,
                value: str) -> dict[str, Any]:
    """A choice in a select menu (component type 3) of a message the bot sent: kept
    apart from the transport, so that it stays valid whatever carries the calls."""
    payload = fake.press(person, message, custom_id)
    payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": [value]}
    fake.saw("INTERACTION_CREATE", payload)  # checked as it is now
    return payload
