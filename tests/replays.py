"""A tournament replayed with its corrected results from the start: the rounds as they
were paired (the pairings made stand), each followed at once by its pairings' final
results. Corrections must leave the standings equal to this."""

from __future__ import annotations

from bot.services.tournaments import Event, Outcome, Reported, Round


def replayed(events: list[Event]) -> list[Event]:
    """The same rounds, each followed by its pairings' last reported results (a pairing
    decided when it was made keeps its result unless a host corrected it)."""
    final: dict[tuple[int, int], Outcome] = {}
    for e in events:
        if isinstance(e, Reported):
            final[(e.round, e.board)] = e.outcome
    out: list[Event] = []
    for e in events:
        if isinstance(e, Round):
            out.append(e)
            out += [Reported(e.number, p.board, final[(e.number, p.board)])
                    for p in e.pairings if (e.number, p.board) in final]
    return out
