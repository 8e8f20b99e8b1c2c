"""The Discord fake the tests talk to: ``bot.testing.discord_fake`` (the package holds
it so that ``python -m bot bench`` can drive the bot through it too); see its
docstring for what it models."""

from bot.testing.discord_fake import *  # noqa: F403
from bot.testing.discord_fake import FakeDiscord, RealTime, settle
from bot.testing.discord_payloads import Payloads
from bot.testing.discord_world import *  # noqa: F403
from bot.testing.fake_transport import VirtualAsyncio

__all__ = ["FakeDiscord", "Payloads", "RealTime", "VirtualAsyncio", "settle"]
