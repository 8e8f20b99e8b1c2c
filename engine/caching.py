"""A cache of values made of ints that CPython's garbage collector does not walk.

The rules' caches (Cairo's analyses, Quoridor's geometries) live in the bot's process
for as long as it runs, thousands of entries each. An instance of a dataclass or a
NamedTuple is tracked by the collector for its whole life, and every full collection
walks it while the event loop waits; a plain tuple of ints is let go by the collector
the first time it sees it. So the cache keeps each value as a plain tuple and makes
the value anew from it on every call (a fraction of a microsecond): at stress pace the
two caches were an eighth of what each full collection walked (docs/benchmarks.md,
"The heap at stress pace").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import _CacheInfo, lru_cache, update_wrapper
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class TupleCache(Generic[K, V]):
    """``compute`` behind an LRU cache of ``maxsize`` entries, each kept as
    ``parts(value)`` (a plain tuple of ints) and returned as ``make(*parts)``: an equal
    value, not the same object. ``__wrapped__`` is ``compute`` uncached (for searches
    that keep their own tables), ``cache_info`` and ``cache_clear`` as lru_cache's."""

    def __init__(self, compute: Callable[[K], V], maxsize: int,
                 make: Callable[..., V], parts: Callable[[V], tuple[Any, ...]]) -> None:
        update_wrapper(self, compute)
        self.__wrapped__ = compute
        self._make = make
        self._kept: Callable[[K], tuple[Any, ...]] = lru_cache(maxsize=maxsize)(
            lambda key: parts(compute(key)))

    def __call__(self, key: K) -> V:
        return self._make(*self._kept(key))

    def cache_info(self) -> _CacheInfo:
        return self._kept.cache_info()  # type: ignore[attr-defined, no-any-return]

    def cache_clear(self) -> None:
        self._kept.cache_clear()  # type: ignore[attr-defined]


def kept_as_tuples(maxsize: int, make: Callable[..., V],
                   parts: Callable[[V], tuple[Any, ...]] = tuple  # type: ignore[assignment]
                   ) -> Callable[[Callable[[K], V]], TupleCache[K, V]]:
    """A decorator: ``TupleCache(function, maxsize, make, parts)``; ``parts`` defaults
    to ``tuple`` (a NamedTuple's fields)."""
    def cache(compute: Callable[[K], V]) -> TupleCache[K, V]:
        return TupleCache(compute, maxsize, make, parts)
    return cache
