"""What the process keeps for its life is frozen out of the collector's walks, and what
a later freeze finds dead is freed (``bot.core.heap``)."""

from __future__ import annotations

import gc
import weakref

from bot.core import heap


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def _walked(thing: object) -> bool:  # gc.get_objects: every generation but the frozen
    return any(o is thing for o in gc.get_objects())


def test_settle_freezes_what_lives_and_frees_what_an_earlier_freeze_kept_and_died() -> None:
    try:
        node = _Node()
        gone = weakref.ref(node)
        heap.settle()
        assert not _walked(node) and gc.get_freeze_count() > 0
        del node  # dead, but frozen: no collection sees it until it is unfrozen
        gc.collect()
        assert gone() is not None
        heap.settle()  # a new session's READY
        assert gone() is None
    finally:
        gc.unfreeze()
