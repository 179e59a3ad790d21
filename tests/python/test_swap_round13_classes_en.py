"""English error classes of issue 22's round 14 (docs/counterfactuals.md, "Round 14's rules, English"), read on the
errors of the development splits up to round 13 and on the demo's synthetic notes: a few cases per class, each
swapped both ways (the swap of ``a`` to the other sex gives ``b``, the swap of ``b`` back gives ``a``). Every
sentence is written for this test; none is copied from a gold or held-out set."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # an age hyphenated to its unit licenses the sex word after it
    ("M", "64-year-old man with crushing central chest pain radiating to the jaw.",
     "64-year-old woman with crushing central chest pain radiating to the jaw."),
    ("F", "Referred as a 58-yr-old female, unable to weight-bear after a fall on her hip.",
     "Referred as a 58-yr-old male, unable to weight-bear after a fall on his hip."),
    # a hyphenated kinship epithet is the patient's like "mother of two"
    ("F", "Mother-of-four, 36, slipped on the stairs carrying a laundry basket.",
     "Father-of-four, 36, slipped on the stairs carrying a laundry basket."),
    # "the victim" and "the casualty" name the patient: apposition and predicate
    ("M", "The casualty, a man in his 50s, was thrown from his motorbike at speed.",
     "The casualty, a woman in her 50s, was thrown from her motorbike at speed."),
    ("F", "The victim is a woman of about 25; she was punched twice in the face.",
     "The victim is a man of about 25; he was punched twice in the face."),
    ("F", "The cyclist, who is a woman in her 40s, was knocked off at a roundabout.",
     "The cyclist, who is a man in his 40s, was knocked off at a roundabout."),
    # a sex word with an age opening the note
    ("F", "A woman in her 80s with new weakness of the right arm since breakfast.",
     "A man in his 80s with new weakness of the right arm since breakfast."),
    # a sex word heading a question, in the crew's report, in a referral
    ("M", "Has the gentleman in cubicle 4 had his bloods taken? He is asking to go home.",
     "Has the lady in cubicle 4 had her bloods taken? She is asking to go home."),
    ("F", "Paramedics report the lady was lying on the kitchen floor beside her walking frame.",
     "Paramedics report the gentleman was lying on the kitchen floor beside his walking frame."),
    ("M", "Please could you review this gentleman, who has had a swollen calf since his flight.",
     "Please could you review this lady, who has had a swollen calf since her flight."),
    ("F", "Police say the woman stepped off the kerb and her bag caught on the bus.",
     "Police say the man stepped off the kerb and his bag caught on the bus."),
    # a subject pronoun whose own clause has the patient as its object is someone else
    ("F", "Her niece drops in on weekends; she last saw her on Sunday and she was well then.",
     "His niece drops in on weekends; she last saw him on Sunday and he was well then."),
    ("M", "His GP, Dr. ___, reviewed him on Monday; she stopped his ramipril and told him to rest.",
     "Her GP, Dr. ___, reviewed her on Monday; she stopped her ramipril and told her to rest."),
    ("M", "He was reviewed by the registrar, who wants an MRI; she has discussed the risks with him.",
     "She was reviewed by the registrar, who wants an MRI; she has discussed the risks with her."),
    # the subject of the next clause goes on from the person who acted on the patient
    ("M", "His brother found him unconscious in the shed and he rang for an ambulance.",
     "Her brother found her unconscious in the shed and he rang for an ambulance."),
    ("F", "Her neighbour, a district nurse, drove her in; she checked her blood sugar on the way.",
     "His neighbour, a district nurse, drove him in; she checked his blood sugar on the way."),
    ("F", "The practice nurse phoned the department; she reports that she has vomited all night.",
     "The practice nurse phoned the department; she reports that he has vomited all night."),
    # a relative's own reflexive and "on her way"
    ("M", "His neighbour, himself a retired GP, thinks he has had a stroke.",
     "Her neighbour, himself a retired GP, thinks she has had a stroke."),
    ("F", "She has run out of insulin. Her daughter has been phoned and is on her way in.",
     "He has run out of insulin. His daughter has been phoned and is on her way in."),
    # a parent or several children speaking of a relative make that relative the patient
    ("M", "Father says his son has been wheezy since the bonfire last night.",
     "Father says his daughter has been wheezy since the bonfire last night."),
    ("M", "His sister says her brother has had a headache since the weekend.",
     "Her sister says her sister has had a headache since the weekend."),
    ("F", "His sons, anxious about their mother, say she has not left her flat in a week.",
     "Her sons, anxious about their father, say he has not left his flat in a week."),
    # the patient's own words about the patient, quoted before the speaker
    ("M", "\"I'm an old soldier, I don't need a wheelchair,\" he insisted at triage.",
     "\"I'm an old soldier, I don't need a wheelchair,\" she insisted at triage."),
    ("F", "'I'm not the sort of woman who sees doctors,' she said, holding her side.",
     "'I'm not the sort of man who sees doctors,' he said, holding his side."),
    # "her" an object before a state or "next to", a possessive after "see" + GP or "gave" + age
    ("F", "Her carer found her slumped in the chair next to her tablets.",
     "His carer found him slumped in the chair next to his tablets."),
    ("F", "She was told to see her GP on Monday and gave her age as 70.",
     "He was told to see his GP on Monday and gave his age as 70."),
    # another patient named with "a": that patient's decade and apposed sex word
    ("F", "She is a porter here; she was bitten by a pt in his 80s who was confused.",
     "He is a porter here; he was bitten by a pt in his 80s who was confused."),
    ("M", "He strained his shoulder catching a patient, a woman in her 70s, who fainted.",
     "She strained her shoulder catching a patient, a woman in her 70s, who fainted."),
    # an emphatic reflexive closing a relative's clause is the relative's
    ("M", "His son drove him to the ED himself.", "Her son drove her to the ED himself."),
    # a child's age in months or weeks the British way, then the sex code
    ("M", "Pt 9/12 M, BIB parents, two days of vomiting.", "Pt 9/12 F, BIB parents, two days of vomiting."),
    # a partner "of 30 years" takes the apposed role noun along
    ("M", "He lives with his husband of 12 years, a retired fireman.",
     "She lives with her wife of 12 years, a retired firewoman."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round14_en_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "en")


def test_a_sex_word_acting_on_the_patient_is_someone_else() -> None:
    assert swap_sex("A man in his 30s pushed her off the platform.", "M", "en").text == (
        "A man in his 30s pushed him off the platform.")


def test_a_person_who_acted_on_the_patient_stays_someone_else_before_an_auxiliary() -> None:
    assert swap_sex("Police report the man who attacked her has been arrested.", "M", "en").text == (
        "Police report the man who attacked him has been arrested.")


def test_a_british_note_gets_mum() -> None:
    # one way: "mum" and "mom" both go back to "dad"
    assert swap_sex("He is a single dad; his neighbour minds the kids.", "F", "en").text == (
        "She is a single mum; her neighbour minds the kids.")
    assert swap_sex("He is a single dad; his neighbor minds the kids.", "F", "en").text == (
        "She is a single mom; her neighbor minds the kids.")


def test_nan_is_a_grandparent_title() -> None:
    # one way: "grandad" goes back to "granny", the first entry of the list
    assert swap_sex("Known on the ward as 'Nan', she is a frequent visitor to A&E.", "M", "en").text == (
        "Known on the ward as 'Grandad', he is a frequent visitor to A&E.")
    assert swap_sex("Her grandson says his nan fell in the garden.", "M", "en").text == (
        "His grandson says his grandad fell in the garden.")
