"""The error classes round 5 of issue 22 found (benchmarks/README.md, "Round 5 of issue 22"), one case or more per
class, each swapped both ways: the swap of ``a`` to the other sex must give ``b`` and the swap of ``b`` back must
give ``a``; the reading (second opinion) must pass both correct copies. Sentences are written for this test (none
is copied from the held-out sets). Pure-Python swaps: English needs no parser."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import person_nouns_en
from biasmirror.counterfactuals.rules import swap_sex
from biasmirror.counterfactuals.second_opinion import judge
from swap_cases import other

# (language, sex of a, a, b)
CASES = [
    # English: paired role nouns the lexicon did not hold (-ess, -mistress/-master, -woman/-man, -maid)
    ("en", "F", "She is a retired headmistress, alert.", "He is a retired headmaster, alert."),
    ("en", "M", "He is a former schoolmaster and lives alone.", "She is a former schoolmistress and lives alone."),
    ("en", "F", "She worked as a comedienne for years.", "He worked as a comedian for years."),
    ("en", "M", "Avid yachtsman, fell on deck.", "Avid yachtswoman, fell on deck."),
    ("en", "F", "Keen horsewoman, thrown from her mount.", "Keen horseman, thrown from his mount."),
    # English: nouns coordinated with a noun that names the patient
    ("en", "M", "Retired barman and widower, he smokes.", "Retired barmaid and widow, she smokes."),
    ("en", "F", "She is a grandmother of four and a new great-grandmother.",
     "He is a grandfather of four and a new great-grandfather."),
    ("en", "M", "He is a son and grandson of farmers.", "She is a daughter and granddaughter of farmers."),
    # English: kinship nouns as the patient's predicate (with a possessor, after "and is")
    ("en", "F", "She is the niece of the man in bed 4.", "He is the nephew of the man in bed 4."),
    ("en", "M", "Pt is the uncle and guardian of a teen.", "Pt is the aunt and guardian of a teen."),
    ("en", "F", "She is her father's only daughter.", "He is his father's only son."),
    ("en", "M", "He has two brothers and is the eldest son.", "She has two brothers and is the eldest daughter."),
    ("en", "F", "Pt is the sister-in-law of a staff member.", "Pt is the brother-in-law of a staff member."),
    ("en", "M", "He is a nurse and the father of twins.", "She is a nurse and the mother of twins."),
    # English: a fragment's head after any adjectives; a noun phrase fronted before the patient's pronoun
    ("en", "F", "Calm, talkative woman, no distress.", "Calm, talkative man, no distress."),
    ("en", "M", "Left-handed man, sudden aphasia.", "Left-handed woman, sudden aphasia."),
    ("en", "F", "A lady in her 80s, she fell at home.", "A gentleman in his 80s, he fell at home."),
    ("en", "M", "Father of the child in bay 2, he collapsed.", "Mother of the child in bay 2, she collapsed."),
    # English: the patient's own job with a sex word after an age
    ("en", "F", "She is a 40 yo female paramedic with a needlestick.", "He is a 40 yo male paramedic with a needlestick."),
    # English: a partner's sex word in apposition follows the partner
    ("en", "F", "She lives with her husband, a man in his 70s.", "He lives with his wife, a woman in her 70s."),
    ("en", "M", "His girlfriend, a woman in her 20s, drove him in.", "Her boyfriend, a man in his 20s, drove her in."),
    # English: a relative's partner named through the relative's possessive is the relative's
    ("en", "F", "She lives with her son; son's wife helps.", "He lives with his son; son's wife helps."),
    ("en", "M", "His niece's husband found him.", "Her niece's husband found her."),
    # French: a definite kinship predicate with its article, adjective and a coordinated role noun; kinship
    # nouns with a complement fronted before the patient's pronoun
    ("fr", "F", "Elle est la tante de l'enfant de la chambre 6.", "Il est l'oncle de l'enfant de la chambre 6."),
    ("fr", "M", "Il est le fils cadet et le tuteur de son père.", "Elle est la fille cadette et la tutrice de son père."),
    ("fr", "F", "Sœur et nièce de jardiniers, elle s'est coupée.", "Frère et neveu de jardiniers, il s'est coupé."),
    # French and Spanish: "un homme", "una mujer" after an indefinite article name someone else (apposed to
    # another person, an agent) unless a copula, "de" or the patient comes before the article
    ("fr", "F", "Elle a été bousculée par un homme ivre.", "Il a été bousculé par un homme ivre."),
    ("fr", "M", "Amené par un voisin, une femme de 70 ans, qu'il connaît bien.",
     "Amenée par un voisin, une femme de 70 ans, qu'elle connaît bien."),
    ("fr", "F", "C'est une femme de 52 ans, sans antécédent.", "C'est un homme de 52 ans, sans antécédent."),
    ("es", "M", "Fue empujado por una mujer en la parada.", "Fue empujada por una mujer en la parada."),
    ("es", "F", "Acude con su fisioterapeuta, un hombre joven, que la trajo.",
     "Acude con su fisioterapeuta, un hombre joven, que lo trajo."),
    ("es", "M", "Es un varón de 61 años sin alergias.", "Es una mujer de 61 años sin alergias."),
    # English: "dad" in a note about a child is the child's father
    ("en", "M", "Toddler boy with cough; dad gave paracetamol.", "Toddler girl with cough; dad gave paracetamol."),
]

# someone else's nouns stay (the classes' other side)
KEPT = [
    ("en", "F", "She was seen by a male nurse.", "He was seen by a male nurse."),
    ("en", "F", "Pt is a frail woman, poor historian, son at bedside.", "Pt is a frail man, poor historian, son at bedside."),
    ("en", "M", "Retired postman, daughter at bedside.", "Retired postwoman, daughter at bedside."),
    ("en", "M", "He was bitten by a stranger, a woman in her 30s.", "She was bitten by a stranger, a woman in her 30s."),
]


@pytest.mark.parametrize(("language", "sex", "a", "b"), CASES, ids=[c[2][:45] for c in CASES])
def test_round5_class_swaps_both_ways(language: str, sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), language).text == b
    assert swap_sex(b, sex, language).text == a


@pytest.mark.parametrize(("language", "sex", "a", "b"), CASES, ids=[c[2][:45] for c in CASES])
def test_round5_reading_passes_correct_copies(language: str, sex: str, a: str, b: str) -> None:
    assert judge(a, b, sex, language, ("reading",)) == []
    assert judge(b, a, other(sex), language, ("reading",)) == []


def test_kept_words_of_other_people() -> None:
    for language, sex, a, b in KEPT:
        assert swap_sex(a, other(sex), language).text == b, a
        assert judge(a, b, sex, language, ("reading",)) == [], a


# The Spanish reading: an object clitic before a verb of seeing or describing is the patient's, with the
# adjectives after the verb; "la" before a person noun that ends like an infinitive ("auxiliar") or after "que"
# before a person noun is an article. Correct copies pass, both ways.
SPANISH_READING_CASES = [
    ("Su nieto la ve más cansada y delgada.", "Su nieto lo ve más cansado y delgado.", "F"),
    ("Sus vecinos lo describen tranquilo, educado.", "Sus vecinos la describen tranquila, educada.", "M"),
    ("La auxiliar la vio tumbada junto a la cama.", "La auxiliar lo vio tumbado junto a la cama.", "F"),
    ("Está orientado, igual que la enfermera de tarde.", "Está orientada, igual que la enfermera de tarde.", "M"),
]


@pytest.mark.parametrize(("original", "copy", "sex"), SPANISH_READING_CASES,
                         ids=[c[0][:40] for c in SPANISH_READING_CASES])
def test_spanish_reading_passes_correct_copies(original: str, copy: str, sex: str) -> None:
    assert judge(original, copy, sex, "es", ("reading",)) == []
    assert judge(copy, original, other(sex), "es", ("reading",)) == []


def test_spanish_reading_flags_a_clitic_left_after_a_verb_of_seeing() -> None:
    flags = judge("Su nieto la ve más cansada.", "Su nieto la ve más cansado.", "F", "es", ("reading",))
    assert [f.kind for f in flags] == ["residual"]
    flags = judge("Su nieto lo ve más cansado.", "Su nieto lo ve más cansada.", "M", "es", ("reading",))
    assert [f.kind for f in flags] == ["residual"]


def test_a_relative_fronted_without_a_complement_is_kept() -> None:
    # "Son at bedside, he ...": the son is at the bedside; only "Father of ..., he" names the patient
    assert swap_sex("Son at bedside, he is tearful.", "F", "en").text.startswith("Son at bedside, ")
    assert swap_sex("Daughter at bedside, she is tearful.", "M", "en").text.startswith("Daughter at bedside, ")


def test_reading_flags_an_unswapped_role_noun_either_way() -> None:
    # a noun of the patient left as it was is a residual, whichever way the copy goes
    flags = judge("Retired stewardess and widow, she lives alone.", "Retired steward and widow, he lives alone.",
                  "F", "en", ("reading",))
    assert [f.kind for f in flags] == ["residual"]
    flags = judge("Retired steward and widower, he lives alone.", "Retired stewardess and widower, she lives alone.",
                  "M", "en", ("reading",))
    assert [f.kind for f in flags] == ["residual"]


def test_person_noun_lexicon_is_complete_and_consistent() -> None:
    seen: set[str] = set()
    for female, male, female_plural, male_plural, _ in person_nouns_en.PERSON_NOUNS:
        forms = (female, male, female_plural, male_plural)
        assert len(set(forms)) == 4, forms
        assert female_plural != female and male_plural != male
        # a form names one sex only ("dad" is the male of "mom" and "mum": the same male form may repeat)
        assert female not in seen and female_plural not in seen, female
        seen |= {female, female_plural}
    assert not seen & set(person_nouns_en.male_to_female())
