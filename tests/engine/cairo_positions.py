"""Cairo Corridor positions built by hand, shared by the engine's tests: a finished
board with a cross-shaped Corridor, its cell lists, and games to a tie or a win."""

from __future__ import annotations

# A finished board built by hand: a Corridor of 18 cells shaped like a cross (an arm
# to each side, every cell of it critical), the 26 cells around it, the 28 others.
CORRIDOR = [
    "CL", "CD", "GR", "GD", "JR", "JD", "NR", "RU", "RD", "WL", "MR", "NL", "NU", "OL",
    "OD", "OR", "PL", "PD",
]
AROUND = [
    "BR", "CR", "CU", "GL", "GU", "HL", "ID", "IR", "JL", "JU", "KD", "KL", "KU", "ND",
    "OU", "PU", "QU", "RL", "RR", "SL", "SR", "SU", "TL", "VR", "WD", "WU",
]
AWAY = [
    "AD", "AR", "AU", "BD", "BL", "BU", "DL", "ER", "FD", "FL", "FR", "FU", "HD", "HU",
    "IU", "KR", "LL", "QD", "QR", "SD", "UR", "VD", "VL", "VU", "WR", "XD", "XL", "XU",
]


def position(black: list[str], red: list[str], extra: str = "") -> str:
    return f"first: {' '.join(black)}; second: {' '.join(red)}" + extra


# 13 touching pieces each, 27 pieces each: Black is to move, Red placed the last piece.
TIE = position(AROUND[:13] + AWAY[:14], AROUND[13:] + AWAY[14:])
# 14 against 12.
BLACK_WINS = position(AROUND[:14] + AWAY[:13], AROUND[14:] + AWAY[13:])
# 13 each, AU left empty (a dead pocket): Black has one piece more and placed the last.
AWAY_BUT_AU = [c for c in AWAY if c != "AU"]
TIE_BLACK_LAST = position(AROUND[:13] + AWAY_BUT_AU[:14], AROUND[13:] + AWAY_BUT_AU[14:])
# TIE by play: the cells away from the Corridor first, so that the last move closes it.
TIE_MOVES = [
    cell
    for pair in zip(AWAY[:14] + AROUND[:13], AWAY[14:] + AROUND[13:], strict=True)
    for cell in pair
]
