"""What the bot says about the decks of Sigma Escape (``/deck``, ``deck:``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.texts.language import _, text

MAX_SHOWN_NAME = 60  # characters of a deck's own name (from its file) shown


@text
def _title(name: str) -> str:
    short = name if len(name) <= MAX_SHOWN_NAME else name[:MAX_SHOWN_NAME - 1] + "…"
    return plain(short)


@text
def bad_name(name: str, most: int) -> str:
    return (_("A deck's name is a letter or digit, then up to {most} letters, digits, `-` or "
              "`_` (not '{name}').").format(most=most - 1, name=plain(name)))


@text
def shipped_name(name: str) -> str:
    return _("`{name}` is the name of a shipped deck; give yours another `name:`.").format(
               name=name)


@text
def taken(name: str) -> str:
    return (_("This server already has a deck `{name}`; `/host deck remove name:{name}` "
              "first, or give another `name:`.").format(name=name))


@text
def too_many(most: int) -> str:
    return _("This server has {most} decks, the most it may keep; `/host deck remove` one "
             "first.").format(most=most)


@text
def not_deck_file(filename: str) -> str:
    return _("'{filename}' is not a deck file: attach a `.toml` or `.json` deck.").format(
               filename=plain(filename))


@text
def invalid(error: str) -> str:
    error = error.strip()
    stop = "" if error[-1:] in (".", "!", "?") else "."
    return _("That deck cannot be used: {error}").format(error=error) + stop


@text
def _variants(rules: Sequence[str]) -> str:
    """A deck's rules variants (engine.sigma.deck.RULES), each with what it changes, for
    its sheet and the host who adds it; "" for the rules page's own rules."""
    if not rules:
        return ""
    meaning = {
        "open-sides": _("a side is usable only while the cell it points at is empty"),
        "kept-arrows": _("an arrow survives a card of its own colour laid over it"),
        "bare-black": _("a white card may cover black cells that show no black arrow"),
    }
    said = "; ".join(f"{name}: {meaning.get(name, name)}" for name in sorted(rules))
    return _("\nRules variants (not the rules page's): {variants}.").format(variants=said)


@text
def added(name: str, title: str, white: int, black: int, rules: Sequence[str] = ()) -> str:
    return (_("Deck `{name}` added: {title} (White {white} cards, Black {black}). Start a "
              "Sigma Escape match with `deck:{name}`.").format(
                name=name, title=_title(title), white=white, black=black) + _variants(rules))


@text
def removed(name: str) -> str:
    return _("Deck `{name}` removed. Matches played with it keep their own copy.").format(
               name=name)


@text
def unknown(name: str, known: Sequence[str]) -> str:
    return (_("There is no deck '{name}' on this server (decks: {listed}).").format(
                name=plain(name), listed=', '.join(known)))


@text
def cannot_remove_shipped(name: str) -> str:
    return _("`{name}` ships with garnet and cannot be removed.").format(name=name)


@text
def only_sigma(title: str) -> str:
    return _("`deck:` is for Sigma Escape; {title} is played without cards.").format(title=title)


@text
def no_match_deck() -> str:
    return (_("Name a deck (`/deck show name:reconstructed`), or ask in the channel of a "
              "Sigma Escape match for its deck."))


@text
def listing(shipped: Sequence[tuple[str, str, bool]],
            own: Sequence[tuple[str, str]], default: str = "") -> str:
    """``shipped``: (key, title, reconstruction); ``own``: (key, title); ``default``:
    the key of the deck a match gets when it names none."""
    lines = [_("**Decks of Sigma Escape**"), _("Shipped with garnet:")]
    for key, title, rebuilt in shipped:
        note = _(" — a reconstruction: the real cards' pictures are lost") if rebuilt else ""
        mark = _(" (the default)") if key == default else ""
        lines.append(f"• `{key}`{mark}: {_title(title)}{note}")
    if own:
        lines.append(_("Added on this server:"))
        lines += [f"• `{key}`: {_title(title)}" for key, title in own]
    else:
        lines.append(_("None added on this server yet (hosts: `/host deck add file:`)."))
    lines.append(_("Pick one with `deck:` on `/challenge` or `/dm`; `/deck show name:` draws "
                   "its cards."))
    return "\n".join(lines)


@text
def sheet(name: str, title: str, match: int | None, balance: str | None = None,
          rules: Sequence[str] = (), default: bool = False) -> str:
    """``balance``: the measured balance of a shipped deck (``engine.balance``);
    ``rules``: the deck's rules variants; ``default``: the deck a match gets when it
    names none."""
    of = _(" (the deck of match #{match})").format(match=match) if match is not None else ""
    mark = _(" (the default deck)") if default else ""
    measured = _("\nMeasured balance: {balance}").format(balance=balance) if balance else ""
    return _("Deck `{name}`{of}: {title}{mark}{measured}").format(
               name=name, of=of, title=_title(title), mark=mark,
               measured=measured) + _variants(rules)
