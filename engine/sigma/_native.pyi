from collections.abc import Sequence
from typing import Any

class Search:
    def __init__(self, shapes: Any, weights: tuple[float, ...], limit: int, seconds: float,
                 slots: int, rules: int = 0, /) -> None: ...
    @property
    def nodes(self) -> int: ...
    def start(self, white: Sequence[tuple[int, int]], black: Sequence[tuple[int, int]],
              white_arrows: Sequence[tuple[int, int, int]],
              black_arrows: Sequence[tuple[int, int, int]],
              hands: Sequence[Sequence[int]], turn: int, passes: int, /
              ) -> tuple[int, float | None, list[tuple[int, int, int]]]: ...
    def values(self, indices: Sequence[int], depth: int, margin: float, window: float = 0.0, /
               ) -> list[float] | None: ...
    def natural(self, indices: Sequence[int], looks: int, width: int = 0, /
                ) -> list[float] | None: ...
