"""``python -m engine deck list|check|show``: the decks of Sigma Escape."""

from __future__ import annotations

import json

from engine.game import EngineError
from engine.sigma.deck import COLOUR_NAMES, Deck, find_deck, shipped_deck, shipped_decks


def deck_command(action: str, file: str | None, out: str | None, as_json: bool) -> int:
    if action == "list":
        rows = [_facts(shipped_deck(key)) for key in shipped_decks()]
        if as_json:
            print(json.dumps(rows))
        else:
            for row in rows:
                print(f"{row['key']}: {row['name']} ({row['source']}), "
                      f"White {row['white']} cards, Black {row['black']}")
        return 0
    if file is None:
        raise EngineError(f"deck {action} needs a deck file or the name of a shipped deck")
    deck = find_deck(file)
    if action == "check":
        facts = _facts(deck)
        print(json.dumps(facts) if as_json else f"ok: {facts['name']} ({facts['source']}), "
              f"White {facts['white']} cards, Black {facts['black']}")
        return 0
    if out is None:
        raise EngineError("deck show needs --out FILE.png")
    from engine.sigma.render import deck_sheet

    with open(out, "wb") as fh:
        fh.write(deck_sheet(deck))
    print(out)
    return 0


def _facts(deck: Deck) -> dict[str, object]:
    return {
        "key": deck.key,
        "name": deck.name,
        "source": deck.source,
        "reconstruction": deck.reconstruction,
        "presets": [f"{p.card.name} ({COLOUR_NAMES[p.card.colour]})" for p in deck.presets],
        "white": deck.hand_size(0),
        "black": deck.hand_size(1),
    }
