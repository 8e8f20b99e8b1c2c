"""How fair a Sigma Escape deck is: ``python -m engine deck balance FILE|NAME``.

The meter plays paired games from short random openings: each opening twice, the
seats swapped, so that both players of a pairing have every opening as White and as
Black. At each level it pairs the level against itself (is the deck fair between equal
players?) and against the level below (does the stronger player still win from both
seats?). It reports White's share of the wins per pairing with a 95 % Wilson
interval, the share of the openings an exact solve decides within a node budget (a
deck whose openings are already decided is a poor game whoever sits where), and a
verdict from the pairings of equal players.

Every game is deterministic for the seed: the levels search their node budgets with no
move-time cap (as ``duel --fixed``), in C where the extension is built.

It lives beside the command line rather than in ``engine/sigma`` because it uses the
shared computer players (``engine.ai``), which know every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.agency import Agency, Choices, measure_agency, wilson
from engine.game import EngineError
from engine.sigma.deck import WHITE, Deck

#: White's share of the games between equal players that a fair deck keeps within.
FAIR_LOW, FAIR_HIGH = 0.35, 0.65
DEFAULT_LEVELS = (4, 5)
DEFAULT_GAMES = 40
DEFAULT_PLIES = 2
#: Nodes an exact solve of an opening may use before it counts as undecided.
DEFAULT_SOLVE_NODES = 500_000

#: The measured balance of the shipped decks (docs/sigma-deck.md has the commands; §7
#: and §8 with the evaluation as it is), as ``/deck show`` quotes it.
_V1 = ("White wins 0 % of the games at level 5 against itself, 0 % at level 4 (40 games "
       "each), 12 % between greedy players (100 games): favours Black")
_V4 = ("White wins 40 % of the games at level 5 against itself, 52 % at "
       "level 4, 36 % between greedy players (100 games each): fair; against level 5, "
       "level 5 wins 32 points more than a random player as White and 60 more as Black")
SHIPPED_BALANCE: dict[str, str] = {
    "reconstructed": _V4,
    "reconstructed-v1": _V1,
    "reconstructed-v2": "White wins 5 % of the games at level 5 against itself, 20 % at "
                        "level 4, 55 % between greedy players (40 games each): favours "
                        "Black",
    "reconstructed-v3": "White wins 32 % of the games at level 5 against itself, 46 % at "
                        "level 4, 56 % between greedy players (100 games each): favours "
                        "Black at the top level",
    "reconstructed-v4": _V4,
}


@dataclass(frozen=True)
class Pairing:
    """Two players, ``a`` and ``b`` (specs as ``duel`` takes them), and their games."""

    a: str
    b: str
    games: int = 0
    white_wins: int = 0
    a_wins: int = 0

    @property
    def equal(self) -> bool:
        return self.a == self.b

    @property
    def white_share(self) -> float:
        return self.white_wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """White's share's 95 % interval over the distinct games: between equal players
        each game is counted twice (``measure``), so over half of them."""
        if self.equal:
            return wilson(self.white_wins // 2, self.games // 2)
        return wilson(self.white_wins, self.games)

    @property
    def verdict(self) -> str:
        return verdict_of(self.white_share)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        data: dict[str, Any] = {
            "white": self.a, "black": self.b, "games": self.games,
            "white_wins": self.white_wins, "white_share": round(self.white_share, 4),
            "interval": [round(low, 4), round(high, 4)],
        }
        if not self.equal:
            data["first_wins"] = self.a_wins
        return data


@dataclass(frozen=True)
class Solved:
    """Exact solves of the openings: how many, how many decided, and for whom."""

    openings: int
    nodes: int
    white: int = 0
    black: int = 0

    @property
    def decided(self) -> int:
        return self.white + self.black

    def to_json(self) -> dict[str, Any]:
        return {"openings": self.openings, "nodes": self.nodes, "decided": self.decided,
                "white": self.white, "black": self.black}


@dataclass(frozen=True)
class Balance:
    deck: str
    games: int
    plies: int
    seed: int
    pairings: tuple[Pairing, ...]
    solved: Solved | None = None
    notes: list[str] = field(default_factory=list)
    #: Each seat's agency and choices (``engine.agency``), when measured.
    agency: tuple[Agency, ...] = ()
    choices: tuple[Choices, ...] = ()

    @property
    def verdict(self) -> str:
        """``fair`` when White's share between equal players is within the band at
        every level; else whom the deck favours (``unsettled`` when levels disagree)."""
        shares = [p.white_share for p in self.pairings if p.equal]
        return overall_verdict(shares)

    @property
    def imbalance(self) -> float:
        """The largest distance of White's share from one half between equal players:
        what the deck search minimises."""
        return max((abs(p.white_share - 0.5) for p in self.pairings if p.equal), default=0.0)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "deck": self.deck, "games": self.games, "openings": self.plies,
            "seed": self.seed, "pairings": [p.to_json() for p in self.pairings],
        }
        if self.solved is not None:
            data["solved"] = self.solved.to_json()
        if self.agency:
            data["agency"] = [a.to_json() for a in self.agency]
        if self.choices:
            data["choices"] = [c.to_json() for c in self.choices]
        data["verdict"] = self.verdict
        return data

    def lines(self) -> list[str]:
        out = [f"deck: {self.deck}",
               f"{self.games} games a pairing: {self.games // 2} openings of {self.plies} "
               f"random plies, each played twice with the seats swapped (seed {self.seed})"]
        for p in self.pairings:
            low, high = p.interval
            line = (f"{p.a:>6} v {p.b:<6}  White {p.white_wins:>3}/{p.games:<3} "
                    f"{100 * p.white_share:5.1f} %  [{100 * low:.0f}–{100 * high:.0f} %]")
            if p.equal:
                line += f"  {p.verdict}"
            else:
                line += f"  {p.a} won {p.a_wins}/{p.games}"
            out.append(line)
        if self.solved is not None:
            s = self.solved
            out.append(f"exact solve: {s.decided} of {s.openings} openings decided within "
                       f"{s.nodes:,} nodes (won for White {s.white}, for Black {s.black})")
        out.extend(a.line() for a in self.agency)
        out.extend(c.line() for c in self.choices)
        band = f"{100 * FAIR_LOW:.0f}–{100 * FAIR_HIGH:.0f} %"
        out.append(f"verdict: {self.verdict} (fair: White wins {band} between equal players "
                   f"at every level)")
        return out


def verdict_of(share: float) -> str:
    if share < FAIR_LOW:
        return "favours Black"
    if share > FAIR_HIGH:
        return "favours White"
    return "fair"


def overall_verdict(shares: Sequence[float]) -> str:
    found = {verdict_of(s) for s in shares}
    if not found or found == {"fair"}:
        return "fair"
    found.discard("fair")
    return found.pop() if len(found) == 1 else "unsettled"


def pairings_for(levels: Sequence[str], below: bool = True) -> list[tuple[str, str]]:
    """Each level against itself and (with ``below``), for ``ai:L`` above 1, against
    ``ai:L-1``; ``greedy`` and ``random`` only against themselves."""
    out = []
    for spec in levels:
        out.append((spec, spec))
        kind, _, arg = spec.partition(":")
        if below and kind == "ai" and int(arg) > 1:
            out.append((spec, f"ai:{int(arg) - 1}"))
    return out


def parse_levels(text: str) -> list[str]:
    """``4,5`` or ``greedy,4,5``: levels 1 to 5, ``greedy`` or ``random``."""
    out = []
    for part in (p.strip().lower() for p in text.split(",")):
        if part in ("greedy", "random"):
            out.append(part)
        elif part.removeprefix("ai:").isdigit() and 1 <= int(part.removeprefix("ai:")) <= 5:
            out.append(f"ai:{int(part.removeprefix('ai:'))}")
        else:
            raise EngineError(f"'{part}' is not a level (1 to 5, greedy or random)")
    if not out:
        raise EngineError("--levels needs at least one level")
    return out


def strongest(levels: Sequence[str]) -> str:
    """The strongest of ``levels``: the highest ``ai:L``, else the last named."""
    ranked = [(int(spec.partition(":")[2]), spec) for spec in levels if spec.startswith("ai:")]
    return max(ranked)[1] if ranked else levels[-1]


def _mix(seed: int, n: int) -> int:
    return (seed * 1_000_003 + n * 7_919 + 12_345) & 0x7FFFFFFF


def openings(deck: Deck, count: int, plies: int, seed: int) -> list[Any]:
    """``count`` positions after ``plies`` uniformly random placements, by the seed."""
    from engine.ai.duel import opening
    from engine.sigma.game import SigmaEscape

    game = SigmaEscape()
    return [opening(game, plies, _mix(seed, n), 2, {"deck": deck}) for n in range(count)]


def solve(state: Any, nodes: int) -> int | None:
    """The seat that wins ``state`` under perfect play, or None when the search cannot
    prove it within ``nodes`` (or the table is beyond the search's model): the top
    levels' exact endgame (``engine.sigma.endgame``) on a budget of its own."""
    from engine.sigma import ai
    from engine.sigma.endgame import prove

    model = ai._Model(state.deck)
    try:
        root = ai.node_of(state)
    except ai.OutOfModel:
        return None
    search = ai._searcher(model, state.deck, nodes, 0.0)
    turn, result, moves = search.start(root)
    if result is not None:
        return WHITE if result > 0 else 1 - WHITE
    proof = prove(search, moves, sum(root[5][0]) + sum(root[5][1]))
    if not proof.known:
        return None
    return turn if proof.won is not None else 1 - turn


def measure(deck: Deck, levels: Sequence[str] = ("ai:4", "ai:5"),
            games: int = DEFAULT_GAMES, plies: int = DEFAULT_PLIES, seed: int = 1,
            solve_nodes: int = DEFAULT_SOLVE_NODES,
            progress: Callable[[str], None] | None = None, below: bool = True,
            agency: int | None = None) -> Balance:
    """Play every pairing of ``levels`` on ``deck`` (``games`` each, an even number:
    the same openings for every pairing; without ``below`` only the levels against
    themselves) and solve the openings (no solve when ``solve_nodes`` is 0); with
    ``agency`` (a node budget), each seat's agency with the strongest level and its
    decisions' kinds, each solved within that many nodes (none when 0;
    ``engine.agency``)."""
    from engine.ai import player_from_spec
    from engine.ai.duel import play_game
    from engine.sigma.game import SigmaEscape

    if games < 2 or games % 2:
        raise EngineError(f"games must be an even number from 2 up, not {games}")
    if plies < 0:
        raise EngineError(f"openings must be 0 plies or more, not {plies}")
    game = SigmaEscape()
    options = {"deck": deck}
    starts = openings(deck, games // 2, plies, seed)
    results = []
    strong = strongest(levels)
    played: list[int] = []  # the strongest level against itself: the winner, per opening
    for a, b in pairings_for(levels, below):
        one, other = player_from_spec(game, a, True), player_from_spec(game, b, True)
        white = first = 0
        for pair, start in enumerate(starts):
            winner = play_game(game, [one, other], seed, options, pair, start)
            # Between equal players the second game of a pair, the seats swapped, is the
            # first one again (the same players, opening and seeds, from which they draw
            # their chances): counted again, not played again.
            again = winner if a == b else play_game(game, [other, one], seed, options, pair,
                                                    start)
            if a == b == strong:
                assert winner is not None  # Sigma Escape has no draw
                played.append(winner)
            white += (winner == WHITE) + (again == WHITE)
            first += (winner == 0) + (again == 1)
        results.append(Pairing(a, b, games, white, first))
        if progress:
            progress("\n".join(Balance(deck.key, games, plies, seed, (results[-1],)).lines()[2:3]))
    solved = None
    if solve_nodes > 0:
        wins = [solve(start, solve_nodes) for start in starts]
        solved = Solved(len(starts), solve_nodes, wins.count(WHITE), wins.count(1 - WHITE))
    seats: tuple[Agency, ...] = ()
    choices: tuple[Choices, ...] = ()
    if agency is not None:
        seats, found = measure_agency(deck, strong, starts, seed, agency, played)
        choices = found or ()
    return Balance(deck.key, games, plies, seed, tuple(results), solved, agency=seats,
                   choices=choices)
