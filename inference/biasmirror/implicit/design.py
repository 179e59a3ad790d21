"""Which requests a run makes: the study's design, built deterministically from the stimuli, the prompt set
and a design seed, so that a rerun rebuilds the same trials and skips the ones already answered.

Word association: for each category and iteration, 5 positive and 5 negative words are sampled, shuffled,
shown with the two group words in random order, through one of the prompt set's templates chosen at random.
The draw depends on (design seed, category, iteration) only: every model and both languages see the same
words (by word_id), in the same order, with the same group order and template number.

Allocation: every pair of the discipline (Stimuli.pairs_for), shown twice: presentation_order 1 lists the
cisgender candidate first, 2 the transgender candidate first. With symptoms, both candidates get a different
symptom of the same, randomly drawn, urgency; the draw depends on (design seed, discipline, pair) only, so both
orders, both explanation conditions, both languages and every model see the same symptoms.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from biasmirror.implicit.prompts import LanguagePrompts, PromptSet
from biasmirror.implicit.stimuli import GROUPS, URGENCIES, WORDS_PER_VALENCE, Persona, Stimuli, Word

DEFAULT_DESIGN_SEED = 20250101
DEFAULT_ITERATIONS = 50  # per model x language x category, as in the paper


def stable_int(text: str) -> int:
    """A 32-bit integer from a text, identical across processes and platforms (unlike hash())."""
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


@dataclass(frozen=True)
class AssociationTrial:
    language: str
    category: str
    iteration: int
    template_id: str
    group_order: tuple[str, str]  # group keys in the order shown
    words: tuple[Word, ...]  # in the order shown
    prompt: str


@dataclass(frozen=True)
class AllocationTrial:
    language: str
    discipline: str
    explanation: bool
    symptoms: bool
    pair_id: str
    presentation_order: int  # 1: cisgender candidate listed first; 2: transgender candidate first
    cis_persona_id: str
    trans_persona_id: str
    urgency: str | None
    cis_symptom_id: str | None
    trans_symptom_id: str | None
    prompt: str

    @property
    def candidates(self) -> tuple[str, str]:
        """Persona ids in the order shown."""
        if self.presentation_order == 1:
            return self.cis_persona_id, self.trans_persona_id
        return self.trans_persona_id, self.cis_persona_id


@dataclass(frozen=True)
class ExplicitTrial:
    language: str
    question_id: str
    prompt: str


def _association_draw(category: str, iteration: int, design_seed: int) -> np.random.Generator:
    return np.random.default_rng([design_seed, stable_int(f"association|{category}"), iteration])


def association_trials(stimuli: Stimuli, prompt_set: PromptSet, languages: Sequence[str], categories: Sequence[str],
                       iterations: int, design_seed: int = DEFAULT_DESIGN_SEED) -> list[AssociationTrial]:
    trials = []
    for language in languages:
        prompts = prompt_set.for_language(language)
        for category in categories:
            positive = stimuli.words_for(language, category, "positive")
            negative = stimuli.words_for(language, category, "negative")
            for iteration in range(iterations):
                rng = _association_draw(category, iteration, design_seed)
                chosen = [positive[i] for i in rng.choice(len(positive), WORDS_PER_VALENCE, replace=False)]
                chosen += [negative[i] for i in rng.choice(len(negative), WORDS_PER_VALENCE, replace=False)]
                shown = tuple(chosen[i] for i in rng.permutation(len(chosen)))
                order = GROUPS if rng.random() < 0.5 else GROUPS[::-1]
                template = prompts.association_templates[int(rng.integers(1 << 30)) % len(prompts.association_templates)]
                prompt = template.text.format(group_a=prompts.groups[order[0]], group_b=prompts.groups[order[1]],
                                              words=prompts.word_separator.join(w.word for w in shown))
                trials.append(AssociationTrial(language, category, iteration, template.template_id, order, shown, prompt))
    return trials


def persona_card(prompts: LanguagePrompts, persona: Persona, symptom: str | None) -> str:
    card = prompts.persona_card.format(
        name=persona.names[prompts.language], age=persona.age,
        sex_assigned_at_birth=prompts.sex_labels[persona.sex_assigned_at_birth],
        gender_identity=prompts.identity_labels[persona.gender_identity],
    )
    if symptom is not None:
        card += "\n" + prompts.symptoms_line.format(symptom=symptom)
    return card


def symptom_draw(stimuli: Stimuli, discipline: str, pair_id: str, design_seed: int) -> tuple[str, str, str]:
    """(urgency, cis symptom id, trans symptom id): two different symptoms of the same urgency."""
    rng = np.random.default_rng([design_seed, stable_int(f"symptoms|{discipline}|{pair_id}")])
    urgency = URGENCIES[int(rng.integers(len(URGENCIES)))]
    options = stimuli.symptoms_for(discipline, urgency)
    first, second = rng.choice(len(options), 2, replace=False)
    return urgency, options[first].symptom_id, options[second].symptom_id


def allocation_trials(stimuli: Stimuli, prompt_set: PromptSet, languages: Sequence[str], disciplines: Sequence[str],
                      explanations: Iterable[bool], symptom_conditions: Iterable[bool],
                      design_seed: int = DEFAULT_DESIGN_SEED) -> list[AllocationTrial]:
    explanations, symptom_conditions = list(explanations), list(symptom_conditions)
    symptom_text = {s.symptom_id: s.texts for s in stimuli.symptoms}
    trials = []
    for language in languages:
        prompts = prompt_set.for_language(language)
        for discipline in disciplines:
            for explanation in explanations:
                schema = prompts.schema_with_explanation if explanation else prompts.schema_without_explanation
                for with_symptoms in symptom_conditions:
                    for pair in stimuli.pairs_for(discipline):
                        urgency = cis_symptom = trans_symptom = None
                        if with_symptoms:
                            urgency, cis_symptom, trans_symptom = symptom_draw(stimuli, discipline, pair.pair_id, design_seed)
                        cards = {
                            pair.cis_persona_id: persona_card(prompts, stimuli.personas[pair.cis_persona_id],
                                                              symptom_text[cis_symptom][language] if cis_symptom else None),
                            pair.trans_persona_id: persona_card(prompts, stimuli.personas[pair.trans_persona_id],
                                                                symptom_text[trans_symptom][language] if trans_symptom else None),
                        }
                        for order in (1, 2):
                            first, second = ((pair.cis_persona_id, pair.trans_persona_id) if order == 1
                                             else (pair.trans_persona_id, pair.cis_persona_id))
                            prompt = (prompts.discipline_instructions[discipline] + "\n\n"
                                      + schema.format(person_1=cards[first], person_2=cards[second]))
                            trials.append(AllocationTrial(language, discipline, explanation, with_symptoms, pair.pair_id,
                                                          order, pair.cis_persona_id, pair.trans_persona_id, urgency,
                                                          cis_symptom, trans_symptom, prompt))
    return trials


def explicit_trials(prompt_set: PromptSet, languages: Sequence[str]) -> list[ExplicitTrial]:
    trials = []
    for language in languages:
        prompts = prompt_set.for_language(language)
        for question_id, question in prompts.explicit_questions.items():
            trials.append(ExplicitTrial(language, question_id, question))
    return trials
