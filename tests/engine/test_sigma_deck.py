"""Deck files: the shipped reconstruction, the format, and precise errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.sigma.deck import (
    DeckError,
    deck_from_bytes,
    deck_from_data,
    find_deck,
    read_deck_file,
    shipped_deck,
    shipped_decks,
)


def test_the_reconstructed_deck_is_the_default_and_says_so() -> None:
    assert shipped_decks() == ("reconstructed", "reconstructed-v1", "reconstructed-v2",
                               "reconstructed-v3", "reconstructed-v4")
    for key in shipped_decks():
        deck = shipped_deck(key)
        assert deck.reconstruction and deck.source == "reconstruction"
        assert deck.hand_size(0) == 10 and deck.hand_size(1) == 9
        assert [p.card.name for p in deck.presets] == ["Nothing", "Special"]
        assert all(len(card.rows) <= 3 and len(card.rows[0]) <= 3
                   for hand in deck.hands for card, _ in hand)
        assert deck_from_data(deck.to_data(), key) == deck
    assert shipped_deck("reconstructed").name == "Reconstructed deck"
    assert shipped_deck("reconstructed-v1").name == "Reconstructed deck v1"
    assert shipped_deck("reconstructed-v2").name == "Reconstructed deck v2 (trial)"
    assert shipped_deck("reconstructed-v3").name == "Reconstructed deck v3"
    assert shipped_deck("reconstructed-v4").name == "Reconstructed deck v4"
    # The default is the fourth reconstruction, under the rules variant open-sides:
    # v1 with two Black arrows more (docs/sigma-deck.md §10), and its frozen name holds
    # the same cards and rules. The other decks play the rules page's settlements.
    default, v4 = shipped_deck("reconstructed"), shipped_deck("reconstructed-v4")
    assert default.rules == v4.rules == {"open-sides"}
    assert default.presets == v4.presets and default.hands == v4.hands
    assert "open sides" in default.note
    assert all(not shipped_deck(key).rules for key in shipped_decks()
               if key not in ("reconstructed", "reconstructed-v4"))
    first = shipped_deck("reconstructed-v1")
    assert [(p.card.rows, p.at) for p in default.presets] == [
        (p.card.rows, p.at) for p in first.presets]
    assert default.presets[1].card.arrows == first.presets[1].card.arrows
    black = {card.name: (count, [a.text() for a in card.arrows])
             for card, count in default.hands[1]}
    assert black == {"I3": (2, ["0,0,W", "0,2,E"]), "L4": (2, ["0,0,N", "2,1,E"]),
                     "U5": (2, ["0,0,N", "0,2,N"]), "T4": (1, ["0,0,W", "0,2,E", "1,1,S"]),
                     "V5": (1, ["0,0,N", "2,2,E", "2,1,S"]),
                     "I3+": (1, ["0,0,W", "0,2,E", "0,1,N"])}
    assert default.hands[0] == first.hands[0]


def test_the_third_reconstruction_is_kept_as_it_was() -> None:
    # The default from migration 0011 to 0015: the first with the five edits of
    # docs/sigma-deck.md §8 (arrows only: every card keeps its cells and its place).
    third, first = shipped_deck("reconstructed-v3"), shipped_deck("reconstructed-v1")
    assert [(p.card.rows, p.at) for p in third.presets] == [
        (p.card.rows, p.at) for p in first.presets]
    assert [[(c.name, c.rows, n) for c, n in hand] for hand in third.hands] == [
        [(c.name, c.rows, n) for c, n in hand] for hand in first.hands]
    arrows = {(seat, card.name): [a.text() for a in card.arrows]
              for seat, hand in enumerate(third.hands) for card, _ in hand}
    assert [a.text() for a in third.presets[1].card.arrows] == ["0,1,N", "1,2,E", "2,1,S"]
    assert {k: v for k, v in arrows.items() if k[0] == 1} == {
        (1, "I3"): ["0,0,W", "0,2,E"], (1, "L4"): ["0,0,N"], (1, "U5"): ["0,0,N", "1,0,W"],
        (1, "T4"): ["0,0,W", "0,2,E"], (1, "V5"): ["0,0,N", "2,2,E", "2,1,S"]}
    assert {k: v for k, v in arrows.items() if k[0] == 0} == {
        (0, card.name): [a.text() for a in card.arrows] for card, _ in first.hands[0]}


def test_the_first_reconstruction_is_kept_as_it_was() -> None:
    deck = shipped_deck("reconstructed-v1")
    assert deck.presets[1].cells == ((-1, 3), (0, 2), (0, 3), (0, 4), (1, 3))
    names = [card.name for card, _ in deck.hands[0]]
    assert names == ["I2", "I3", "L3", "L3+", "T4", "Y2", "Hub"]
    black = {card.name: (count, [a.text() for a in card.arrows]) for card, count in deck.hands[1]}
    assert black == {"I3": (3, ["0,0,W", "0,2,E"]), "L4": (2, ["0,0,N", "2,1,E"]),
                     "U5": (2, ["0,0,N", "0,2,N"]), "T4": (1, ["0,0,W", "0,2,E", "1,1,S"]),
                     "V5": (1, ["0,0,N", "2,2,E"])}
    l4 = next(card for card, _ in deck.hands[1] if card.name == "L4")
    assert l4.rows == ("#..", "#..", "##.")


def test_the_second_reconstruction_is_the_first_with_the_searched_edits() -> None:
    v1, v2 = shipped_deck("reconstructed-v1"), shipped_deck("reconstructed-v2")
    # White's hand and the Special card's shape are v1's; the Special card lies
    # farther from Nothing: three empty cells between them.
    assert v2.hands[0] == v1.hands[0]
    assert v2.presets[1].card == v1.presets[1].card
    assert v2.presets[1].cells == ((-1, 5), (0, 4), (0, 5), (0, 6), (1, 5))
    black = {card.name: (count, [a.text() for a in card.arrows]) for card, count in v2.hands[1]}
    assert black == {"I3": (3, ["0,0,W", "0,2,E"]), "L4": (1, ["0,0,N"]),
                     "U5": (2, ["0,0,N"]), "T4": (1, ["0,0,W", "0,2,E", "1,1,S"]),
                     "V5": (1, ["0,0,N", "2,2,E"]), "L4+": (1, ["0,0,N", "1,0,E"])}


# A game of the first deck (greedy against greedy): Black closes White in with U5's
# second arrow, which the second deck's U5 does not have.
OLD_GAME = ["T4 4.1", "T4 1.3", "I3 1.1", "V5 1.1", "I3 1.2", "U5 5.1", "Y2 1.3", "U5 7.2"]


def test_an_old_match_replays_with_the_first_deck() -> None:
    from engine.game import EngineError
    from engine.sigma import SigmaEscape

    game = SigmaEscape()
    state = game.replay(OLD_GAME, 2, {"deck": "reconstructed-v1"})
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 1 and not state.board.blanks
    assert state.deck == shipped_deck("reconstructed-v1")
    with pytest.raises(EngineError):
        game.replay(OLD_GAME, 2, {"deck": "reconstructed-v2"})  # another deck


def base() -> dict[str, Any]:
    return copy.deepcopy(shipped_deck("reconstructed-v1").to_data())


def test_data_round_trip_and_json_files(tmp_path: Path) -> None:
    deck = shipped_deck("reconstructed")
    assert deck_from_data(deck.to_data()) == deck
    path = tmp_path / "mine.json"
    data = base()
    data.pop("key")
    data["source"] = "my own cards"
    path.write_text(json.dumps(data))
    mine = read_deck_file(path)
    assert mine.key == "mine" and not mine.reconstruction
    assert find_deck(str(path)) == mine
    assert find_deck("Reconstructed") == deck


def error(data: dict[str, Any]) -> str:
    with pytest.raises(DeckError) as info:
        deck_from_data(data, "test")
    return str(info.value)


def test_a_card_without_an_arrow() -> None:
    data = base()
    data["white"][0]["arrows"] = []
    assert error(data) == ("deck 'test', white hand, card 1 'I2': the card has no arrow "
                           "(open side); every card needs one")


def test_an_arrow_not_on_an_open_edge() -> None:
    data = base()
    data["white"][1]["arrows"] = ["0,0,E"]  # I3: (0,1) is coloured
    assert "white hand, card 2 'I3', arrow 1 (0,0,E): not on an open edge: across it lies " \
        "coloured cell (0, 1) of the same card" in error(data)
    data = base()
    data["white"][2]["arrows"] = ["0,1,N"]  # L3: (0,1) is transparent
    assert "arrow 1 (0,1,N): cell (0, 1) is not a coloured cell of the card" in error(data)
    data = base()
    data["black"][1]["arrows"] = ["2,1,E", "0,0,X"]
    assert "arrow 2: '0,0,X' is not 'row,col,dir'" in error(data)


def test_an_arrow_across_a_transparent_cell_is_fine() -> None:
    # L4's E arrow on (2,1) points at a transparent cell of its own box
    deck = shipped_deck("reconstructed-v1")
    l4 = next(card for card, _ in deck.hands[1] if card.name == "L4")
    assert l4.rows[2][2] == "."


def test_two_arrows_on_one_edge() -> None:
    data = base()
    data["white"][6]["arrows"] = ["0,0,W", "0,0,N", "0,0,W"]
    assert "'Hub', arrow 3 (0,0,W): two arrows on one edge (arrow 1 is there too)" in error(data)


def test_a_box_larger_than_3_by_3() -> None:
    data = base()
    data["black"][0]["cells"] = ["####"]
    assert "the box is 1×4; a card's box is at most 3×3" in error(data)
    data["black"][0]["cells"] = ["#", "#", "#", "#"]
    assert "the box is 4×1" in error(data)


def test_mixed_colours_in_a_card() -> None:
    data = base()
    data["white"][0]["cells"] = ["WB"]
    assert "white hand, card 1 'I2': mixed colours" in error(data)
    data = base()
    data["white"][0]["colour"] = "black"
    assert "'I2': a black card in White's hand" in error(data)


def test_two_different_cards_with_one_name_in_a_hand() -> None:
    data = base()
    data["black"][4]["name"] = "i3"
    assert "black hand, card 5 'i3': two different cards named 'i3' in Black's hand " \
        "(also card 1)" in error(data)


def test_presets_that_overlap() -> None:
    data = base()
    data["presets"][1]["at"] = [-1, -1]  # the plus would lie on the Nothing cell
    assert "preset 2 'Special': presets overlap: it covers cell (0, 0) of preset 'Nothing'" \
        in error(data)


def test_the_first_preset_is_nothing() -> None:
    data = base()
    data["presets"].reverse()
    assert "preset 1 'Special': the first preset is the Nothing card" in error(data)


def test_other_mistakes() -> None:
    data = base()
    data["white"][0]["count"] = 0
    assert "'count' is a whole number from 1 to 40" in error(data)
    data = base()
    data["white"][0]["name"] = "pass"
    assert "is not usable" in error(data)
    data = base()
    data["colour"] = "x"
    assert "unknown field 'colour'" in error(data)
    data = base()
    data["white"][0]["cells"] = ["#", "##"]
    assert "rows of 'cells' have different lengths" in error(data)


def test_files_that_do_not_parse(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("name = ")
    with pytest.raises(DeckError, match=r"deck file 'bad\.toml': not valid TOML"):
        read_deck_file(bad)
    with pytest.raises(DeckError, match="neither a shipped deck"):
        find_deck(str(tmp_path / "missing.toml"))


# ---- bounds: no deck file can make a game, a board or a sheet costly ---------------------


def test_a_preset_far_from_nothing_is_refused_precisely() -> None:
    data = base()
    data["presets"][1]["at"] = [0, 10**12]
    assert error(data) == (
        "deck 'test', preset 2 'Special': 'at' [0, 1000000000000] is too far from Nothing: "
        "a preset lies within 10 cells of it, rows and columns from -10 to 10")


@pytest.mark.parametrize(("change", "said"), [
    (lambda d: d["white"][0].update(count=10**300), "'count' is a whole number from 1 to 40"),
    (lambda d: d.update(white=d["white"] * 6), "White's hand lists 42 cards; a hand has at "
                                               "most 40"),
    (lambda d: d["black"][0].update(count=35), "Black's hand holds 41 cards; a hand has at "
                                               "most 40"),
    (lambda d: d.update(presets=d["presets"] + [d["presets"][1]] * 8), "a deck has at most 8"),
    (lambda d: d.update(name="x" * 101), "'name' has 101 characters; at most 100"),
    (lambda d: d.update(note="x" * 501), "'note' has 501 characters; at most 500"),
    (lambda d: d["white"][0].update(arrows=["9" * 5000 + ",0,N"]), "is not 'row,col,dir'"),
    (lambda d: d["white"][0].update(arrows=["99999999999,0,N"]),
     "(99999999999,0) is outside the card's box of at most 3×3"),
])
def test_every_dimension_of_a_deck_is_bounded(change: Any, said: str) -> None:
    data = base()
    change(data)
    message = error(data)
    assert said in message
    assert len(message) < 300  # what the host reads back is bounded too


@pytest.mark.parametrize(("raw", "as_json", "said"), [
    (b"[" * 5000 + b"]" * 5000, True, "nested too deeply"),
    (b"a = " + b"[" * 5000 + b"]" * 5000, False, "nested too deeply"),
    (b'{"name": ' + b"9" * 5000 + b"}", True, "a number with thousands of digits"),
    (b"name = " + b"9" * 5000, False, "a number with thousands of digits"),
    (b" " * (64 * 1024 + 1), True, "has 65,537 bytes; a deck file has at most 65,536"),
])
def test_deck_files_that_would_crash_a_parser_are_refused(raw: bytes, as_json: bool,
                                                          said: str) -> None:
    with pytest.raises(DeckError) as info:
        deck_from_bytes(raw, as_json, "test")
    assert said in str(info.value)
