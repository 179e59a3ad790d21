"""Shared helpers of the triage-model tests: a learnable toy triage task and one torch thread per test module."""

from __future__ import annotations

import numpy as np
import pytest

# the level follows from the chief complaint alone: a task a small model must learn
COMPLAINTS = {"cardiac arrest": 1, "chest pain": 2, "abdominal pain": 3, "ankle sprain": 4, "medication refill": 5}


def toy_triage_task(n: int, seed: int, heart_rate: bool = False) -> tuple[list[str], list[int]]:
    """n linearized records and their levels; `heart_rate` adds a vital-sign line that carries no signal."""
    rng = np.random.default_rng(seed)
    names = list(COMPLAINTS)
    records, levels = [], []
    for _ in range(n):
        complaint = names[rng.integers(len(names))]
        lines = [f"age: {rng.integers(18, 90)}", f"sex: {rng.choice(['female', 'male'])}"]
        if heart_rate:
            lines.append(f"heart rate: {rng.integers(55, 125)}")
        lines.append(f"chief complaint: {complaint}")
        records.append("\n".join(lines))
        levels.append(COMPLAINTS[complaint])
    return records, levels


@pytest.fixture(scope="module")
def single_torch_thread():
    """One intra-op thread: on a small shared machine, two spinning threads slow tiny models down badly."""
    import torch

    saved = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(saved)
