"""Nim on one pile as a garnet game: the ``engine.game.Game`` interface, nothing else
of garnet. A state is a frozen value that round-trips through JSON."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.game import (
    JSON,
    Game,
    GameOverError,
    MoveError,
    NotAMove,
    OptionSpec,
    Outcome,
    PositionError,
)
from garnet_nim.render import draw

SEATS = ("Blue", "Orange")
RULES = ("last-wins", "last-loses")
_MOVE = re.compile(r"^\s*(?:take\s*|t\s*)?(\d{1,2})\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class NimState:
    stones: int  # at the start
    take: int  # the most one move takes
    rule: str
    taken: tuple[int, ...] = ()  # every move so far

    @property
    def left(self) -> int:
        return self.stones - sum(self.taken)


class Nim(Game[NimState, int]):
    interface: ClassVar[int] = 1
    key: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    seat_counts: ClassVar[tuple[int, ...]] = (2,)
    seat_names: ClassVar[tuple[str, ...]] = SEATS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("stones", 21, None, "the stones on the pile at the start",
                   minimum=5, maximum=60, phrase="{value} stones"),
        OptionSpec("take", 3, None, "the most stones one move takes",
                   minimum=2, maximum=5, phrase="take 1 to {value}"),
        OptionSpec("rule", "last-wins", RULES, "whether taking the last stone wins or loses",
                   words=(("last-wins", "who takes the last stone wins"),
                          ("last-loses", "who takes the last stone loses"))),
    )
    move_help: ClassVar[str] = ("type how many stones you take, from 1 to the match's "
                                "`take` (3 unless the host said otherwise): `2` or `take 2`")
    move_example: ClassVar[str] = "take 2"

    def new_state(self, seats: int = 2, options: Mapping[str, Any] | None = None) -> NimState:
        self.check_seats(seats)
        chosen = self.check_options(options)
        return NimState(int(chosen["stones"]), int(chosen["take"]), str(chosen["rule"]))

    def to_json(self, state: NimState) -> JSON:
        return {"stones": state.stones, "take": state.take, "rule": state.rule,
                "taken": list(state.taken)}

    def from_json(self, data: Mapping[str, Any]) -> NimState:
        try:
            state = NimState(int(data["stones"]), int(data["take"]), str(data["rule"]),
                             tuple(int(n) for n in data.get("taken", ())))
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"not a Nim position: {exc}") from None
        if state.rule not in RULES or state.left < 0:
            raise PositionError("not a Nim position")
        return state

    def to_move(self, state: NimState) -> int | None:
        return None if state.left == 0 else len(state.taken) % 2

    def parse_move(self, state: NimState, text: str) -> int:
        found = _MOVE.match(text)
        if found is None:
            raise NotAMove(f"'{text.strip()}' is not a move: {self.move_help}", text.strip())
        if state.left == 0:
            raise GameOverError("the game is over")
        count = int(found.group(1))
        most = min(state.take, state.left)
        if not 1 <= count <= most:
            raise MoveError(f"take 1 to {most} stones, not {count}", found.group(1))
        return count

    def legal_moves(self, state: NimState) -> list[int]:
        return list(range(1, min(state.take, state.left) + 1)) if state.left else []

    def well_formed_moves(self, state: NimState) -> list[int]:
        return list(range(1, state.take + 1)) if state.left else []

    def apply(self, state: NimState, move: int) -> NimState:
        if state.left == 0:
            raise GameOverError("the game is over")
        if move not in self.legal_moves(state):
            raise MoveError(f"take 1 to {min(state.take, state.left)} stones, not {move}")
        return NimState(state.stones, state.take, state.rule, (*state.taken, move))

    def outcome(self, state: NimState) -> Outcome | None:
        if state.left:
            return None
        last = (len(state.taken) - 1) % 2
        winner = last if state.rule == "last-wins" else 1 - last
        return Outcome(winner, False, None,
                       f"{SEATS[last]} took the last stone")

    def notation(self, move: int) -> str:
        return f"take {move}"

    def moves_played(self, state: NimState) -> int:
        return len(state.taken)

    def last_move(self, state: NimState) -> str | None:
        return self.notation(state.taken[-1]) if state.taken else None

    def status(self, state: NimState) -> str:
        return f"{state.left} stones left"

    def render(self, state: NimState, *, hints: bool = False,
               names: Sequence[str] | None = None, verdict: str | None = None) -> bytes:
        seat = self.to_move(state)
        if verdict is not None:
            line = verdict
        elif seat is None:
            result = self.outcome(state)
            line = f"{SEATS[result.winner]} wins" if result and result.winner is not None else ""
        else:
            who = names[seat] if names and seat < len(names) else ""
            line = f"{SEATS[seat]}{f' ({who})' if who else ''} to move"
        return draw(state.left, state.stones, line)

    def describe_position(self, state: NimState) -> str:
        return (f"{state.left} of {state.stones} stones are left; a move takes 1 to "
                f"{state.take}.")
