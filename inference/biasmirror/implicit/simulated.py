"""A SIMULATED respondent with planted bias, for demos and tests. It is not a language model.

`make_backend("simulated", "<any label>", **options)` gives a backend that answers the study's prompts the way
a respondent with known, configurable biases would, so that the whole pipeline (requests, caching, parsing,
marts, confidence intervals) runs with no model and the planted values can be checked against the estimates.
Every run made with it is recorded with backend = 'simulated' and parameters.simulation = true.

What it does:
- association prompts: it finds the study's words in the prompt (seeds/implicit_association_words.csv) and
  gives each negative word to "transgender" and each positive word to "cisgender" with probability
  (1 + b) / 2, where b = association_bias (one number, or one per category); the expected bias score is b.
- allocation prompts (those asking for a <person> tag): it finds the two personas by name, the discipline by
  keywords of the instruction, and whether symptoms were given. It chooses the transgender candidate with
  probability trans_rates[discipline], moved toward 0.5 by symptoms_shrink with symptoms and by
  explanation_shrink with an explanation, plus position_bias when the transgender candidate is listed first
  (minus it when listed second): the expected trans_rate over both orders is expected_trans_rate(...), and
  the expected order effect 2 x position_bias (unless clipped at 0 or 1).
- other prompts (the explicit questions): a short "No" answer in the prompt's language.
- refusal_rate: share of answers that decline; noise_rate: share written sloppily (case, accents, markdown,
  extra text, dropped or duplicated lines, untagged names) to exercise the parsers.
Answers are deterministic given (seed, request): equal requests get equal answers, as the cache assumes.
"""

from __future__ import annotations

import hashlib
import re
from typing import Mapping, Sequence

import numpy as np

from biasmirror.backends.base import Generation, GenerationRequest
from biasmirror.implicit.parsing import match_key, normalize
from biasmirror.implicit.stimuli import Stimuli, load_stimuli

DEFAULT_ASSOCIATION_BIAS = 0.4
# A prompt naming at least this many of the study's words is read as a word-association prompt.
MIN_ASSOCIATION_WORDS = 4
# The pattern the paper reports (trans candidates favoured for HIV, STI and mental health, cis candidates for
# gynecological and breast care and prostate studies); the numbers are illustrative.
DEFAULT_TRANS_RATES: dict[str, float] = {
    "hiv": 0.70, "sti": 0.68, "mental_health": 0.72, "gynecology": 0.25, "breast_ultrasound": 0.32,
    "transvaginal_ultrasound": 0.30, "mastectomy": 0.38, "prostate": 0.33,
}
# Checked in this order on the instruction (the prompt's first paragraph); the first hit wins.
DISCIPLINE_KEYWORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("mastectomy", ("mastectom",)),
    ("transvaginal_ultrasound", ("transvaginal",)),
    ("breast_ultrasound", ("breast", "mama", "mamaria")),
    ("prostate", ("prostat",)),
    ("gynecology", ("gynecolog", "gynaecolog", "ginecolog")),
    ("hiv", ("hiv", "vih")),
    ("sti", ("sti", "sexually transmitted", "its", "transmision sexual", "ets")),
    ("mental_health", ("mental",)),
)
REFUSALS = {
    "en": ("I'm sorry, but I can't sort people into groups like this.",
           "I cannot choose between patients on the basis of gender identity."),
    "es": ("Lo siento, no puedo clasificar a las personas de esta manera.",
           "No puedo elegir entre pacientes según su identidad de género."),
}
EXPLICIT = {
    "en": "No. Both should be treated equally; gender identity is not a reason to favour anyone.",
    "es": "No. Ambas personas deben ser tratadas por igual; la identidad de género no es motivo para favorecer a nadie.",
}


def _tokens_key(text: str) -> str:
    """match_key() reduced to its word tokens, space-separated (punctuation dropped)."""
    return " ".join(re.findall(r"\w+", match_key(text)))


def _find_phrases(key: str, phrases: Mapping[str, object], longest: int = 6) -> list[str]:
    """The phrases of `phrases` (token keys) found in `key`, left to right, longest match first, no overlaps."""
    tokens = re.findall(r"\w+", key)
    found, i = [], 0
    while i < len(tokens):
        for size in range(min(longest, len(tokens) - i), 0, -1):
            candidate = " ".join(tokens[i:i + size])
            if candidate in phrases:
                found.append(candidate)
                i += size
                break
        else:
            i += 1
    return found


def _probability(value: object, name: str) -> float:
    number = float(value)  # type: ignore[arg-type]
    if not 0.0 <= number <= 1.0:
        raise ValueError(f"simulated backend: {name} must be between 0 and 1, got {number}")
    return number


class SimulatedRespondent:
    """SIMULATION: a respondent with planted, configurable bias (see the module docstring). Not an LLM."""

    name = "simulated"
    is_local = True

    def __init__(self, model: str = "simulated-respondent", association_bias: float | Mapping[str, float] = DEFAULT_ASSOCIATION_BIAS,
                 trans_rates: Mapping[str, float] | None = None, symptoms_shrink: float = 0.5,
                 explanation_shrink: float = 0.0, position_bias: float = 0.05, refusal_rate: float = 0.02,
                 noise_rate: float = 0.1, seed: int = 0, stimuli: Stimuli | None = None) -> None:
        self.model = model
        self.stimuli = stimuli or load_stimuli()
        categories = self.stimuli.categories
        if isinstance(association_bias, Mapping):
            unknown = sorted(set(association_bias) - set(categories))
            if unknown:
                raise ValueError(f"simulated backend: unknown categor(ies) {unknown} in association_bias; known: {', '.join(categories)}")
            self.association_bias = {c: float(association_bias.get(c, 0.0)) for c in categories}
        else:
            self.association_bias = {c: float(association_bias) for c in categories}
        for category, value in self.association_bias.items():
            if not -1.0 <= value <= 1.0:
                raise ValueError(f"simulated backend: association_bias for {category} must be in [-1, 1], got {value}")
        rates = dict(DEFAULT_TRANS_RATES)
        unknown = sorted(set(trans_rates or {}) - set(self.stimuli.disciplines))
        if unknown:
            raise ValueError(f"simulated backend: unknown discipline(s) {unknown} in trans_rates; known: {', '.join(self.stimuli.disciplines)}")
        rates.update({k: _probability(v, f"trans_rates.{k}") for k, v in (trans_rates or {}).items()})
        self.trans_rates = rates
        self.symptoms_shrink = _probability(symptoms_shrink, "symptoms_shrink")
        self.explanation_shrink = _probability(explanation_shrink, "explanation_shrink")
        self.position_bias = float(position_bias)
        if not -0.5 <= self.position_bias <= 0.5:
            raise ValueError(f"simulated backend: position_bias must be in [-0.5, 0.5], got {position_bias}")
        self.refusal_rate = _probability(refusal_rate, "refusal_rate")
        self.noise_rate = _probability(noise_rate, "noise_rate")
        self.seed = int(seed)
        self._valence: dict[str, dict[str, tuple[str, str]]] = {}  # language -> word key -> (valence, category)
        for word in self.stimuli.words:
            self._valence.setdefault(word.language, {})[_tokens_key(word.word)] = (word.valence, word.category)
        self._names: dict[str, tuple[str, str, str]] = {}  # name key -> (persona id, group, language)
        for persona in self.stimuli.personas.values():
            for language, full_name in persona.names.items():
                self._names[_tokens_key(full_name)] = (persona.persona_id, persona.group, language)
        self._symptoms = [_tokens_key(t) for s in self.stimuli.symptoms for t in s.texts.values()]

    # -- planted values -------------------------------------------------------------------------------------
    def expected_association_bias(self, category: str) -> float:
        return self.association_bias[category]

    def expected_trans_rate(self, discipline: str, symptoms: bool, explanation: bool) -> float:
        """The trans_rate this respondent is built to give, averaged over both presentation orders."""
        rate = self.trans_rates.get(discipline, 0.5)
        if symptoms:
            rate = 0.5 + (rate - 0.5) * (1 - self.symptoms_shrink)
        if explanation:
            rate = 0.5 + (rate - 0.5) * (1 - self.explanation_shrink)
        return rate

    # -- the ChatBackend protocol ---------------------------------------------------------------------------
    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return [Generation(self._answer(request), "stop") for request in requests]

    def _rng(self, request: GenerationRequest, text: str) -> np.random.Generator:
        digest = hashlib.sha256(f"{self.seed}|{request.temperature}|{request.seed}|{text}".encode("utf-8")).digest()
        return np.random.default_rng(int.from_bytes(digest[:8], "little"))

    def _answer(self, request: GenerationRequest) -> str:
        text = request.messages[-1].content if request.messages else ""
        rng = self._rng(request, text)
        key = match_key(text)
        language = "es" if re.search(r"\b(cisgenero|transgenero|nombre|palabras|identidad|responde)\b", key) else "en"
        if re.search(r"<\s*person\s*>", text, re.IGNORECASE):
            return self._allocation(text, key, language, rng)
        found = _find_phrases(key, self._valence.get(language, {}))
        if len(set(found)) >= MIN_ASSOCIATION_WORDS:
            return self._association(text, found, language, rng)
        return EXPLICIT[language]

    def _association(self, text: str, found: list[str], language: str, rng: np.random.Generator) -> str:
        if rng.random() < self.refusal_rate:
            return REFUSALS[language][0]
        original = {_tokens_key(w): w for w in re.split(r"[,\n;:]", text) if w.strip()}
        lines = []
        for word_key in dict.fromkeys(found):
            valence, category = self._valence[language][word_key]
            stereotyped = rng.random() < (1 + self.association_bias[category]) / 2
            group = "transgender" if (valence == "negative") == stereotyped else "cisgender"
            word = original.get(word_key, word_key).strip().strip(".")
            label = {"cisgender": "cisgénero", "transgender": "transgénero"}[group] if language == "es" else group
            lines.append(f"{word} - {label}")
        if rng.random() < self.noise_rate:
            lines = self._sloppy_lines(lines, rng)
        return "\n".join(lines)

    @staticmethod
    def _sloppy_lines(lines: list[str], rng: np.random.Generator) -> list[str]:
        kind = int(rng.integers(5))
        if kind == 0:  # shouting, no accents
            return [normalize(line).upper() for line in lines]
        if kind == 1:  # markdown and a preamble
            return ["Sure! Here are my answers:", ""] + [f"* **{line.split(' - ')[0]}**: {line.split(' - ')[1]}" for line in lines]
        if kind == 2 and lines:  # a line missing
            drop = int(rng.integers(len(lines)))
            return lines[:drop] + lines[drop + 1:]
        if kind == 3 and lines:  # a line repeated
            again = int(rng.integers(len(lines)))
            return lines + [lines[again]]
        return [f"{i}. {line.replace(' - ', ': ')}" for i, line in enumerate(lines, 1)]  # numbered, colons

    def _allocation(self, text: str, key: str, language: str, rng: np.random.Generator) -> str:
        found = []
        for name_key in _find_phrases(key, self._names):
            persona_id, group, _ = self._names[name_key]
            if persona_id not in [f[0] for f in found]:
                found.append((persona_id, group, name_key))
        names = {pid: self.stimuli.personas[pid].names[language] for pid, _, _ in found}
        if rng.random() < self.refusal_rate or len(found) != 2 or {g for _, g, _ in found} != {"cisgender", "transgender"}:
            return REFUSALS[language][1]
        instruction = match_key(text.split("\n\n", 1)[0])
        discipline = next((d for d, words in DISCIPLINE_KEYWORDS
                           if any(re.search(rf"(?<!\w){re.escape(w)}", instruction) for w in words)), None)
        token_text = f" {_tokens_key(text)} "
        symptoms = any(f" {symptom} " in token_text for symptom in self._symptoms)
        explanation = bool(re.search(r"<\s*reasoning\s*>", text, re.IGNORECASE))
        rate = self.expected_trans_rate(discipline, symptoms, explanation) if discipline else 0.5
        trans_first = found[0][1] == "transgender"
        p_trans = min(1.0, max(0.0, rate + (self.position_bias if trans_first else -self.position_bias)))
        chosen_group = "transgender" if rng.random() < p_trans else "cisgender"
        chosen = next(pid for pid, group, _ in found if group == chosen_group)
        name = names[chosen]
        reasoning = ""
        if explanation:
            reasoning = ("<reasoning>Simulated answer: no clinical reason separates them.</reasoning>\n" if language == "en"
                         else "<reasoning>Respuesta simulada: ninguna razón clínica las distingue.</reasoning>\n")
        if rng.random() < self.noise_rate:
            kind = int(rng.integers(4))
            if kind == 0:
                return f"{reasoning}<Person> {normalize(name).upper()} </Person>"
            if kind == 1:
                return f"{reasoning}" + (f"I would see {name} first." if language == "en" else f"Atendería primero a {name}.")
            if kind == 2:
                return f"{reasoning}<person>{name.split()[0]}</person>"
            return f"{reasoning}After weighing both:\n\n<person>**{name}**</person>\n\nThank you."
        return f"{reasoning}<person>{name}</person>"
