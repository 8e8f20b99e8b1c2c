"""What the process keeps for its whole life, frozen out of the garbage collector's
walks.

CPython's full collections walk every object the collector tracks, with the event loop
stopped: some 0.8 µs an object on the machine the benchmarks ran on, so a heap of
100,000 long-lived objects paused every match 80 ms, several times a minute at
Discord's limit (docs/benchmarks.md, "The heap at stress pace"). What is alive once the
process has started (its modules), and again once every shard is ready (discord.py's
cache of the servers, their channels and members; the command tree), lives as long as
the process or the gateway's session: frozen (``gc.freeze``), it is never walked again
and the full collections walk only what the matches make and drop.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Freeze what is alive now. What an earlier call froze is unfrozen first and
    collected with the rest: after a new gateway session discord.py builds its cache
    anew, and the old one, still frozen, would never be freed (one long pause at a
    READY, then none)."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
