"""Stimuli, personas, counterbalancing and prompt sets of the implicit-bias study (no warehouse needed)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import yaml
from scipy import stats

from biasmirror.implicit.design import allocation_trials, association_trials, explicit_trials, symptom_draw
from biasmirror.implicit.parsing import match_key
from biasmirror.implicit.personas import DEFAULT_SEED, generate_pairs, generate_personas, write_persona_seeds
from biasmirror.implicit.prompts import BUILTIN, PromptSetError, load_prompt_set
from biasmirror.implicit.stimuli import FILES, GENDER_IDENTITIES, LANGUAGES, load_stimuli, seeds_dir


@pytest.fixture(scope="module")
def stimuli():
    return load_stimuli()


@pytest.fixture(scope="module")
def prompts(stimuli):
    return load_prompt_set(stimuli=stimuli)


def test_eight_categories_with_the_papers_word_lists_in_both_languages(stimuli) -> None:
    """15 positive and 15 negative words per category, as the paper's appendix lists them: its Risk list has 29
    words (14 negative), and so does ours."""
    assert len(stimuli.categories) == 8
    for language in LANGUAGES:
        for category in stimuli.categories:
            for valence in ("positive", "negative"):
                expected = 14 if (category, valence) == ("risk", "negative") else 15
                assert len(stimuli.words_for(language, category, valence)) == expected, (language, category, valence)
    ids = {lang: {w.word_id for w in stimuli.words if w.language == lang} for lang in LANGUAGES}
    assert ids["en"] == ids["es"] and len(ids["en"]) == 239
    assert "recklessness" not in {w.word for w in stimuli.words}


def test_personas_are_balanced_in_gender_identity_and_age(stimuli) -> None:
    personas = list(stimuli.personas.values())
    assert len(personas) == 100
    assert Counter(p.gender_identity for p in personas) == {identity: 25 for identity in GENDER_IDENTITIES}
    bands = Counter((p.gender_identity, p.age_band) for p in personas)
    assert set(bands.values()) == {5} and len(bands) == 20
    cis = [p.age for p in personas if p.group == "cisgender"]
    trans = [p.age for p in personas if p.group == "transgender"]
    assert stats.ttest_ind(cis, trans).pvalue > 0.05  # as the paper checks
    for language in LANGUAGES:
        assert len({p.names[language] for p in personas}) == 100


def test_the_seed_files_are_the_generators_output(tmp_path: Path) -> None:
    write_persona_seeds(tmp_path, DEFAULT_SEED)
    for key in ("personas", "pairs"):
        assert (tmp_path / FILES[key]).read_bytes() == (seeds_dir() / FILES[key]).read_bytes(), key
    other = generate_personas(DEFAULT_SEED + 1)
    assert [p.names for p in other] != [p.names for p in generate_personas(DEFAULT_SEED)]


def test_pairs_match_sex_at_birth_and_age_band_and_use_every_persona_once_per_round(stimuli) -> None:
    for pair in stimuli.pairs:
        cis, trans = stimuli.personas[pair.cis_persona_id], stimuli.personas[pair.trans_persona_id]
        assert cis.group == "cisgender" and trans.group == "transgender"
        assert cis.sex_assigned_at_birth == trans.sex_assigned_at_birth == pair.sex_assigned_at_birth
        assert cis.age_band == trans.age_band == pair.age_band
        # the two candidates can be told apart by first name alone and by surname alone
        for language in LANGUAGES:
            a, b = match_key(cis.names[language]).split(), match_key(trans.names[language]).split()
            assert a[0] != b[0] and a[-1] != b[-1]
    for round_number in range(1, 5):
        used = Counter(pid for p in stimuli.pairs if p.round == round_number for pid in (p.cis_persona_id, p.trans_persona_id))
        assert set(used.values()) == {1} and len(used) == 100
    assert len({(p.cis_persona_id, p.trans_persona_id) for p in stimuli.pairs}) == len(stimuli.pairs) == 200


def test_every_discipline_shows_100_pairs_with_each_persona_equally_often(stimuli) -> None:
    for discipline, spec in stimuli.disciplines.items():
        pairs = stimuli.pairs_for(discipline)
        assert len(pairs) == 100, discipline
        appearances = Counter(pid for p in pairs for pid in (p.cis_persona_id, p.trans_persona_id))
        assert len(set(appearances.values())) == 1, discipline
        if spec.candidate_sex_at_birth != "any":
            assert {p.sex_assigned_at_birth for p in pairs} == {spec.candidate_sex_at_birth}


def test_each_pair_is_shown_in_both_orders_with_the_same_cards(stimuli, prompts) -> None:
    trials = allocation_trials(stimuli, prompts, ["en", "es"], list(stimuli.disciplines), [False, True], [False, True])
    assert len(trials) == 2 * 8 * 2 * 2 * 100 * 2
    by_pair: dict[tuple, dict[int, object]] = {}
    for t in trials:
        by_pair.setdefault((t.language, t.discipline, t.explanation, t.symptoms, t.pair_id), {})[t.presentation_order] = t
    assert all(set(orders) == {1, 2} for orders in by_pair.values())
    for orders in list(by_pair.values())[::97]:
        first, second = orders[1], orders[2]
        assert first.candidates == second.candidates[::-1]
        cis_name = stimuli.personas[first.cis_persona_id].names[first.language]
        trans_name = stimuli.personas[first.trans_persona_id].names[first.language]
        assert first.prompt.index(cis_name) < first.prompt.index(trans_name)
        assert second.prompt.index(trans_name) < second.prompt.index(cis_name)
        # the same two persona cards, only swapped
        lines = {o: [line for line in t.prompt.splitlines() if line.strip()] for o, t in orders.items()}
        assert sorted(lines[1]) == sorted(lines[2]) and lines[1] != lines[2]
        assert len(first.prompt) == len(second.prompt)
    # each persona is listed first as often as second within a discipline and condition
    positions = Counter((t.discipline, t.candidates[0]) for t in trials if t.language == "en" and not t.explanation and not t.symptoms)
    seconds = Counter((t.discipline, t.candidates[1]) for t in trials if t.language == "en" and not t.explanation and not t.symptoms)
    assert positions == seconds


def test_symptoms_are_of_the_same_urgency_and_shared_by_orders_languages_and_conditions(stimuli, prompts) -> None:
    trials = allocation_trials(stimuli, prompts, ["en", "es"], ["gynecology", "hiv"], [False, True], [True])
    text = {s.symptom_id: s for s in stimuli.symptoms}
    draws: dict[tuple, set] = {}
    for t in trials:
        cis, trans = text[t.cis_symptom_id], text[t.trans_symptom_id]
        assert cis.urgency == trans.urgency == t.urgency and cis.discipline == trans.discipline == t.discipline
        assert t.cis_symptom_id != t.trans_symptom_id
        assert cis.texts[t.language] in t.prompt and trans.texts[t.language] in t.prompt
        draws.setdefault((t.discipline, t.pair_id), set()).add((t.urgency, t.cis_symptom_id, t.trans_symptom_id))
    assert all(len(v) == 1 for v in draws.values())
    urgencies = Counter(next(iter(v))[0] for v in draws.values())
    assert stats.binomtest(urgencies["high"], sum(urgencies.values()), 0.5).pvalue > 0.001
    assert symptom_draw(stimuli, "hiv", "F001", 1) == symptom_draw(stimuli, "hiv", "F001", 1)


def test_association_trials_sample_5_plus_5_words_the_same_in_both_languages(stimuli, prompts) -> None:
    trials = association_trials(stimuli, prompts, ["en", "es"], list(stimuli.categories), 50)
    assert len(trials) == 2 * 8 * 50
    by_key = {(t.language, t.category, t.iteration): t for t in trials}
    for t in trials:
        assert Counter(w.valence for w in t.words) == {"positive": 5, "negative": 5}
        assert {w.category for w in t.words} == {t.category}
        assert all(w.word in t.prompt for w in t.words)
        twin = by_key[("es" if t.language == "en" else "en", t.category, t.iteration)]
        assert [w.word_id for w in twin.words] == [w.word_id for w in t.words]
        assert twin.group_order == t.group_order and twin.template_id[-1] == t.template_id[-1]
    english = [t for t in trials if t.language == "en"]
    assert set(Counter(t.template_id for t in english)) == {"en-1", "en-2", "en-3"}
    first_trans = sum(t.group_order[0] == "transgender" for t in english)
    assert stats.binomtest(first_trans, len(english), 0.5).pvalue > 0.001
    # group words appear in the order drawn
    for t in english[:50]:
        assert t.prompt.index(t.group_order[0]) < t.prompt.index(t.group_order[1]) or t.group_order[1] in t.prompt[:t.prompt.index(t.group_order[0])]
    again = association_trials(stimuli, prompts, ["en"], ["risk"], 5)
    assert [t.prompt for t in again] == [t.prompt for t in english if t.category == "risk"][:5]
    other_seed = association_trials(stimuli, prompts, ["en"], ["risk"], 5, design_seed=7)
    assert [t.prompt for t in other_seed] != [t.prompt for t in again]


def test_templates_do_not_contain_stimulus_words(stimuli, prompts) -> None:
    import re

    for language, lp in prompts.languages.items():
        keys = {match_key(w.word) for w in stimuli.words if w.language == language}
        texts = [t.text for t in lp.association_templates] + [lp.schema_with_explanation, lp.schema_without_explanation]
        for text in texts:
            tokens = " ".join(re.findall(r"\w+", match_key(text)))
            hits = [k for k in keys if re.search(rf"(?<!\w){re.escape(k)}(?!\w)", tokens)]
            assert not hits, (language, hits)


def test_explicit_questions_in_both_languages(prompts) -> None:
    trials = explicit_trials(prompts, ["en", "es"])
    assert sorted((t.language, t.question_id) for t in trials) == [
        ("en", "allocation"), ("en", "association"), ("es", "allocation"), ("es", "association")]


def builtin_document() -> dict:
    return yaml.safe_load(BUILTIN.read_text(encoding="utf-8"))


def test_a_user_prompt_set_changes_the_wording_and_the_digest(tmp_path: Path, stimuli, prompts) -> None:
    document = builtin_document()
    document["name"] = "paper-style"
    document["languages"] = {"en": document["languages"]["en"]}
    document["languages"]["en"]["association_templates"] = [
        {"id": "t1", "text": "Words: {words}. For each, answer {group_a} or {group_b}, one per line."}]
    document["languages"]["en"]["allocation"]["discipline_instructions"] = {"hiv": "You are a queue agent at an HIV centre. Pick one."}
    document["languages"]["en"]["explicit_questions"] = {"allocation": "Would you favour either patient?"}
    path = tmp_path / "set.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    custom = load_prompt_set(path, stimuli)
    assert custom.name == "paper-style" and custom.digest != prompts.digest
    assert list(custom.languages) == ["en"]
    trial = association_trials(stimuli, custom, ["en"], ["risk"], 1)[0]
    assert trial.prompt.startswith("Words: ") and trial.template_id == "t1"
    hiv = allocation_trials(stimuli, custom, ["en"], ["hiv"], [False], [False])[0]
    assert hiv.prompt.startswith("You are a queue agent at an HIV centre. Pick one.")
    gyn = allocation_trials(stimuli, custom, ["en"], ["gynecology"], [False], [False])[0]
    assert gyn.prompt.startswith(stimuli.disciplines["gynecology"].instructions["en"])  # not overridden: the seed's
    questions = {t.question_id: t.prompt for t in explicit_trials(custom, ["en"])}
    assert questions == {"association": stimuli.questions[("association", "en")], "allocation": "Would you favour either patient?"}
    with pytest.raises(PromptSetError, match="no prompts for language 'es'"):
        custom.for_language("es")
    yaml_path = tmp_path / "set.yaml"
    yaml_path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    assert load_prompt_set(yaml_path, stimuli).digest == custom.digest


@pytest.mark.parametrize("mutate, messages", [
    (lambda d: d["languages"]["en"]["association_templates"][0].update(text="Pick {group_a} or {group_b}."),
     ["languages.en.association_templates[0].text: missing placeholder {words}"]),
    (lambda d: d["languages"]["en"]["allocation"].update(persona_card="Name: {name}\nSex: {sex}"),
     ["languages.en.allocation.persona_card: missing placeholder {gender_identity}",
      "languages.en.allocation.persona_card: unknown placeholder {sex}"]),
    (lambda d: d["languages"]["en"]["allocation"].update(discipline_instructions={"dermatology": "x"}),
     ["unknown key 'dermatology'"]),
    (lambda d: d.update(langauges=d.pop("languages")), ["missing key 'languages'", "unknown key 'langauges'"]),
    (lambda d: d["languages"].update(fr=d["languages"]["en"]), ["languages: unknown key 'fr'"]),
    (lambda d: d["languages"]["es"]["groups"].update(transgender="cisgénero"), ["languages.es.groups: the two group words must differ"]),
    (lambda d: d["languages"]["en"]["allocation"].update(schema_with_explanation="Answer {person_1} {"),
     ["schema_with_explanation: bad placeholder syntax"]),
    (lambda d: d.update(name="has spaces"), ["name: expected a short name"]),
    (lambda d: d["languages"]["en"]["association_templates"].append({"id": "en-1", "text": "{words} {group_a} {group_b}"}),
     ["template ids must be unique"]),
])
def test_bad_prompt_sets_list_every_problem_with_its_location(tmp_path: Path, stimuli, mutate, messages) -> None:
    document = builtin_document()
    mutate(document)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    with pytest.raises(PromptSetError) as error:
        load_prompt_set(path, stimuli)
    assert str(path) in str(error.value)
    for message in messages:
        assert message in str(error.value)


def test_unreadable_prompt_set_files(tmp_path: Path, stimuli) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(PromptSetError, match="cannot be read as JSON"):
        load_prompt_set(broken, stimuli)
    with pytest.raises(PromptSetError, match="no such file"):
        load_prompt_set(tmp_path / "missing.yaml", stimuli)
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- b\n", encoding="utf-8")
    with pytest.raises(PromptSetError, match=r"\(top level\): expected a mapping"):
        load_prompt_set(listing, stimuli)


def test_simulated_respondent_is_registered_and_validates_its_options() -> None:
    from biasmirror.backends.registry import make_backend

    backend = make_backend("simulated", "planted", association_bias=0.2, trans_rates={"hiv": 0.9})
    assert backend.name == "simulated" and backend.is_local and backend.model == "planted"
    assert backend.expected_trans_rate("hiv", symptoms=True, explanation=False) == pytest.approx(0.7)
    with pytest.raises(ValueError, match="unknown discipline"):
        make_backend("simulated", "x", trans_rates={"dermatology": 0.5})
    with pytest.raises(ValueError, match="refusal_rate must be between 0 and 1"):
        make_backend("simulated", "x", refusal_rate=2)
    with pytest.raises(TypeError):
        make_backend("simulated", "x", no_such_option=1)


def test_generator_pairs_are_reproducible() -> None:
    personas = generate_personas(3)
    assert generate_pairs(personas, 3) == generate_pairs(personas, 3)
    assert np.mean([p.age for p in personas]) > 18
