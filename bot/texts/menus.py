"""What the select menus of Sigma Escape say (cards, then their placements)."""

from __future__ import annotations

from bot.core.escape import plain

DIRS = {"N": "top", "E": "right", "S": "bottom", "W": "left"}


def card_placeholder(seat: str, name: str) -> str:
    return f"{seat} ({plain(name)[:40]}): choose a card to place"


def card_choice(card: str, placements: int, left: int) -> tuple[str, str]:
    copies = f" · {left} in hand" if left > 1 else ""
    return card, f"{placements} placement{'s' if placements != 1 else ''}{copies}"


def place_placeholder(card: str, first: int, last: int, total: int) -> str:
    return f"Place {card}: {first}–{last} of {total}" if total > 25 else f"Place {card}"


def place_choice(move: str, side: int, row: int, col: int, dir: str,
                 arrow: int) -> tuple[str, str]:
    return move, f"side {side} ({DIRS.get(dir, dir)} of cell {row},{col}), arrow {arrow}"


def placements(card: str, total: int, shown: int) -> str:
    more = (f" The first {shown} are here; type the others (`{card} SIDE.ARROW`)."
            if shown < total else "")
    return (f"**{card}**: {total} legal placement{'s' if total != 1 else ''} — the side's "
            f"number is on the board, the arrow's under the card.{more} Only you see this.")


def stale() -> str:
    return ("This menu is from an earlier position: the board has changed since. "
            "Use the menu under the newest board (or type your move).")


def not_for_menu() -> str:
    return "This match has no card menus."


def no_card(card: str) -> str:
    return f"You have no legal placement of {plain(card)} now; choose another card."
