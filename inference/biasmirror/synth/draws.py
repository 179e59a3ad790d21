"""Sequential reader over pre-drawn uniforms, shared by the synthetic data generators.

Drawing scalars from numpy one at a time is slow; the generators draw a block of uniforms per record in one
vectorised call and consume them here in a fixed order, so the same seed gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence


class Draws:
    """Sequential reader over one record's pre-drawn uniforms."""

    __slots__ = ("_u", "_i")

    def __init__(self, uniforms: list[float]) -> None:
        self._u = uniforms
        self._i = 0

    def random(self) -> float:
        value = self._u[self._i]  # IndexError: the generator reserved too few draws per record
        self._i += 1
        return value

    def chance(self, p: float) -> bool:
        return self.random() < p

    def index(self, n: int) -> int:
        return min(int(self.random() * n), n - 1)

    def choice(self, options: Sequence[str]) -> str:
        return options[self.index(len(options))]

    def integer(self, low: int, high: int) -> int:
        """Uniform integer in [low, high]."""
        return low + self.index(high - low + 1)

    def sample(self, options: Sequence[str], k: int) -> list[str]:
        """k distinct elements, in random order (partial Fisher-Yates)."""
        pool = list(options)
        for i in range(k):
            j = i + self.index(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
