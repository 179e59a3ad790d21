"""Random paired predictions with a planted effect, and the paired metrics computed from them directly with numpy:
the independent reference the SQL metrics are checked against."""

from __future__ import annotations

import numpy as np
import pandas as pd


def random_pairs(rng: np.random.Generator, n: int, shift_probability: float = 0.12, female_bias: float = 0.0,
                 levels: tuple[int, int] = (1, 4), strata: dict[str, list[str]] | None = None) -> pd.DataFrame:
    """Random pairs; with female_bias > 0 the female presentation tends to get the less severe level."""
    sex = rng.choice(["F", "M"], n)
    original = rng.integers(levels[0], levels[1] + 1, n)
    moved = rng.random(n) < shift_probability
    # direction of the move of the *female* presentation relative to the male one
    female_up = rng.random(n) < 0.5 + female_bias
    step = np.where(female_up, 1, -1) * np.where(sex == "M", 1, -1)
    counterfactual = np.clip(np.where(moved, original + step, original), levels[0], levels[1])
    frame = pd.DataFrame({
        "pair_id": [f"p{i:06d}" for i in range(n)], "original_sex": sex, "original_level": original,
        "counterfactual_level": counterfactual, "true_level": rng.integers(levels[0], levels[1] + 1, n),
    })
    for name, values in (strata or {}).items():
        frame[f"stratum_{name}"] = rng.choice(values, n)
    return frame


def reference_paired_metrics(sex: np.ndarray, original: np.ndarray, counterfactual: np.ndarray) -> dict[str, float]:
    """The paired metrics of docs/metrics.md, computed directly from the pairs with numpy (independent of the SQL)."""
    sex = np.asarray(sex)
    original = np.asarray(original, dtype=float)
    counterfactual = np.asarray(counterfactual, dtype=float)
    delta = counterfactual - original
    m_to_f, f_to_m = sex == "M", sex == "F"
    female = np.where(sex == "F", original, counterfactual)
    male = np.where(sex == "M", original, counterfactual)

    def share(mask: np.ndarray, condition: np.ndarray) -> float:
        return float(condition[mask].mean()) if mask.any() else float("nan")

    values = {
        "pdr": float((delta != 0).mean()),
        "p_up_m_to_f": share(m_to_f, delta > 0),
        "p_down_m_to_f": share(m_to_f, delta < 0),
        "p_up_f_to_m": share(f_to_m, delta > 0),
        "p_down_f_to_m": share(f_to_m, delta < 0),
        "nmd": float((female - male).mean()),
        "pooled_rate": float(np.sign(female - male).mean()),
    }
    values["dts_m_to_f"] = values["p_up_m_to_f"] - values["p_down_m_to_f"]
    values["dts_f_to_m"] = values["p_up_f_to_m"] - values["p_down_f_to_m"]
    values["nats_plus"] = values["p_up_f_to_m"] - values["p_up_m_to_f"]
    values["nats_minus"] = values["p_down_f_to_m"] - values["p_down_m_to_f"]
    return values
