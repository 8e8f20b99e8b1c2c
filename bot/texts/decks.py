"""What the bot says about the decks of Sigma Escape (``/deck``, ``deck:``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain

MAX_SHOWN_NAME = 60  # characters of a deck's own name (from its file) shown


def _title(name: str) -> str:
    short = name if len(name) <= MAX_SHOWN_NAME else name[:MAX_SHOWN_NAME - 1] + "…"
    return plain(short)


def bad_name(name: str, most: int) -> str:
    return (f"A deck's name is a letter or digit, then up to {most - 1} letters, digits, "
            f"`-` or `_` (not '{plain(name)}').")


def shipped_name(name: str) -> str:
    return f"`{name}` is the name of a shipped deck; give yours another `name:`."


def taken(name: str) -> str:
    return (f"This server already has a deck `{name}`; `/host deck remove name:{name}` first, "
            "or give another `name:`.")


def too_many(most: int) -> str:
    return f"This server has {most} decks, the most it may keep; `/host deck remove` one first."


def not_deck_file(filename: str) -> str:
    return f"'{plain(filename)}' is not a deck file: attach a `.toml` or `.json` deck."


def invalid(error: str) -> str:
    error = error.strip()
    return f"That deck cannot be used: {error}" + ("" if error[-1:] in (".", "!", "?") else ".")


# What each rules variant a deck may name changes (engine.sigma.deck.RULES), for the
# deck's sheet and the host who adds it.
VARIANTS = {
    "open-sides": "a side is usable only while the cell it points at is empty",
    "kept-arrows": "an arrow survives a card of its own colour laid over it",
    "bare-black": "a white card may cover black cells that show no black arrow",
}


def _variants(rules: Sequence[str]) -> str:
    if not rules:
        return ""
    said = "; ".join(f"{name}: {VARIANTS.get(name, name)}" for name in sorted(rules))
    return f"\nRules variants (not the rules page's): {said}."


def added(name: str, title: str, white: int, black: int, rules: Sequence[str] = ()) -> str:
    return (f"Deck `{name}` added: {_title(title)} (White {white} cards, Black {black}). "
            f"Start a Sigma Escape match with `deck:{name}`.{_variants(rules)}")


def removed(name: str) -> str:
    return f"Deck `{name}` removed. Matches played with it keep their own copy."


def unknown(name: str, known: Sequence[str]) -> str:
    return (f"There is no deck '{plain(name)}' on this server (decks: "
            f"{', '.join(known)}).")


def cannot_remove_shipped(name: str) -> str:
    return f"`{name}` ships with garnet and cannot be removed."


def only_sigma(title: str) -> str:
    return f"`deck:` is for Sigma Escape; {title} is played without cards."


def no_match_deck() -> str:
    return ("Name a deck (`/deck show name:reconstructed`), or ask in the channel of a "
            "Sigma Escape match for its deck.")


def listing(shipped: Sequence[tuple[str, str, bool]],
            own: Sequence[tuple[str, str]]) -> str:
    """``shipped``: (key, title, reconstruction); ``own``: (key, title)."""
    lines = ["**Decks of Sigma Escape**", "Shipped with garnet:"]
    for key, title, rebuilt in shipped:
        note = " — a reconstruction: the real cards' pictures are lost" if rebuilt else ""
        lines.append(f"• `{key}`: {_title(title)}{note}")
    if own:
        lines.append("Added on this server:")
        lines += [f"• `{key}`: {_title(title)}" for key, title in own]
    else:
        lines.append("None added on this server yet (hosts: `/host deck add file:`).")
    lines.append("Pick one with `deck:` on `/challenge` or `/dm`; `/deck show name:` "
                 "draws its cards.")
    return "\n".join(lines)


def sheet(name: str, title: str, match: int | None, balance: str | None = None,
          rules: Sequence[str] = ()) -> str:
    """``balance``: the measured balance of a shipped deck (``engine.balance``);
    ``rules``: the deck's rules variants."""
    of = f" (the deck of match #{match})" if match is not None else ""
    measured = f"\nMeasured balance: {balance}" if balance else ""
    return f"Deck `{name}`{of}: {_title(title)}{measured}{_variants(rules)}"
