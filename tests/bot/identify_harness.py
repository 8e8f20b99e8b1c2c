"""One bot process's IDENTIFY turns, for the test that starts several at once
(``tests/bot/test_rest_sharing.py``): ``python -m tests.bot.identify_harness URL SHARD
MAX_CONCURRENCY`` takes the shard's turn (``bot.services.identify``) as the bot's
``before_identify_hook`` does, prints ``{"shard": n, "at": unix time}`` when it has it,
holds it its 5 s, and exits."""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.services.identify import IDENTIFY_WINDOW, IdentifyTurns
from bot.store.db import Database


async def main(url: str, shard: int, max_concurrency: int) -> None:
    db = Database(url)
    turns = IdentifyTurns(db)
    try:
        await turns.take(shard, max_concurrency, "garnet-test")
        print(json.dumps({"shard": shard, "at": time.time()}), flush=True)
        await asyncio.sleep(IDENTIFY_WINDOW + 0.2)  # the turn given back, then gone
    finally:
        await turns.close()
        await db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
