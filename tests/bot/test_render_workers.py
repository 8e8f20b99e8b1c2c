"""Drawings in fair, bounded workers (``bot.services.render``): one server's stuck
boards do not stop another's, a drawing past its limit is stopped, deck sheets are
capped per user, and the boards are drawn in processes of their own."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from bot.services import render as render_module
from bot.services.jobs import UserBusy
from bot.services.render import Renderer, TooLongToDraw
from engine.registry import get_game


class Stuck:
    def __init__(self) -> None:
        self.go = threading.Event()
        self.real = render_module._render_job

    def job(self, game_key: str, state: Any, hints: bool, names: list[str],
            banner: str | None = None, words: dict[str, str] | None = None) -> bytes:
        if names and names[0] == "stuck":
            self.go.wait(30)
        return self.real(game_key, state, hints, names, banner, words)


async def test_one_servers_stuck_boards_do_not_stop_anothers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    stuck = Stuck()
    monkeypatch.setattr(render_module, "_render_job", stuck.job)
    renderer = Renderer(0)  # two threads
    game = get_game("cairo")
    state = game.new_state(2)
    try:
        theirs = [asyncio.create_task(renderer.render(game, state, ["stuck", "b"], False,
                                                      server="A")) for _ in range(4)]
        await asyncio.sleep(0.05)
        ours = await asyncio.wait_for(renderer.render(game, state, ["a", "b"], False,
                                                      server="B"), 20)
        assert ours.startswith(b"\x89PNG") and not any(t.done() for t in theirs)
        assert renderer.boards.queue.load("A") == 4  # ordered, never refused
    finally:
        stuck.go.set()
    await asyncio.gather(*theirs)
    renderer.close()


async def test_a_board_past_its_limit_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    stuck = Stuck()
    monkeypatch.setattr(render_module, "_render_job", stuck.job)
    monkeypatch.setattr(render_module, "BOARD_SECONDS", 0.05)
    renderer = Renderer(0)
    game = get_game("cairo")
    try:
        with pytest.raises(TooLongToDraw, match="took too long"):
            await renderer.render(game, game.new_state(2), ["stuck"], False, server="A")
        assert renderer.boards.slots.replaced == 1
    finally:
        stuck.go.set()
    renderer.close()


def _slow_sheet(go: threading.Event) -> bytes:
    go.wait(30)
    return b"sheet"


async def test_a_user_has_one_deck_sheet_on_the_way() -> None:
    renderer = Renderer(0)
    go = threading.Event()
    try:
        first = asyncio.create_task(renderer.sheet(_slow_sheet, go, "A", "alice"))
        await asyncio.sleep(0.05)
        with pytest.raises(UserBusy):
            await renderer.sheet(_slow_sheet, go, "A", "alice")
    finally:
        go.set()
    assert await first == b"sheet"
    renderer.close()


async def test_boards_are_drawn_in_a_worker_process() -> None:
    renderer = Renderer(1)
    game = get_game("cairo")
    try:
        data = await renderer.render(game, game.new_state(2), ["a", "b"], False, server="A")
        assert data.startswith(b"\x89PNG") and len(renderer.boards.slots.pids()) == 1
    finally:
        renderer.close()
