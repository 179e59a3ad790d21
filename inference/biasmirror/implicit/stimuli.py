"""The study's stimuli, read from the seed files (the single source of truth, also loaded by `dbt seed`).

seeds/implicit_association_words.csv   word_id, category, valence, language, word
seeds/implicit_disciplines.csv         discipline, display_order, candidate_sex_at_birth, language, label, instruction
seeds/implicit_symptoms.csv            symptom_id, discipline, urgency, language, symptom
seeds/implicit_explicit_questions.csv  question_id, language, question
seeds/implicit_personas.csv            persona_id, gender_identity, group, sex_assigned_at_birth, age, age_band, name_en, name_es
seeds/implicit_persona_pairs.csv       pair_id, sex_assigned_at_birth, age_band, round, cis_persona_id, trans_persona_id

The last two are written by `biasmirror.implicit.personas` (a seeded generator).
"""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from biasmirror.paths import project_dir

LANGUAGES: tuple[str, ...] = ("en", "es")
GROUPS: tuple[str, ...] = ("cisgender", "transgender")
VALENCES: tuple[str, ...] = ("positive", "negative")
URGENCIES: tuple[str, ...] = ("high", "low")
GENDER_IDENTITIES: dict[str, tuple[str, str]] = {  # identity -> (group, sex assigned at birth)
    "cis_woman": ("cisgender", "female"),
    "cis_man": ("cisgender", "male"),
    "trans_woman": ("transgender", "male"),
    "trans_man": ("transgender", "female"),
}
CANDIDATE_SEXES: tuple[str, ...] = ("any", "female", "male")
QUESTIONS: tuple[str, ...] = ("association", "allocation")
WORDS_PER_VALENCE = 5  # words of each valence shown in one association prompt

FILES = {
    "words": "implicit_association_words.csv",
    "disciplines": "implicit_disciplines.csv",
    "symptoms": "implicit_symptoms.csv",
    "questions": "implicit_explicit_questions.csv",
    "personas": "implicit_personas.csv",
    "pairs": "implicit_persona_pairs.csv",
}


class StimuliError(ValueError):
    """A seed file of the study is missing or inconsistent; the message names the file and the problem."""


@dataclass(frozen=True)
class Word:
    word_id: str
    category: str
    valence: str
    language: str
    word: str


@dataclass(frozen=True)
class Discipline:
    discipline: str
    display_order: int
    candidate_sex_at_birth: str  # any | female | male: which pairs are shown (see Stimuli.pairs_for)
    labels: dict[str, str]
    instructions: dict[str, str]


@dataclass(frozen=True)
class Symptom:
    symptom_id: str
    discipline: str
    urgency: str
    texts: dict[str, str]


@dataclass(frozen=True)
class Persona:
    persona_id: str
    gender_identity: str
    group: str
    sex_assigned_at_birth: str
    age: int
    age_band: str
    names: dict[str, str]


@dataclass(frozen=True)
class PersonaPair:
    pair_id: str
    sex_assigned_at_birth: str
    age_band: str
    round: int
    cis_persona_id: str
    trans_persona_id: str


@dataclass(frozen=True)
class Stimuli:
    words: tuple[Word, ...]
    disciplines: dict[str, Discipline]
    symptoms: tuple[Symptom, ...]
    questions: dict[tuple[str, str], str]  # (question_id, language) -> question
    personas: dict[str, Persona]
    pairs: tuple[PersonaPair, ...]
    _by_category: dict[tuple[str, str, str], tuple[Word, ...]] = field(default_factory=dict, repr=False)

    @property
    def categories(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for word in self.words:
            seen.setdefault(word.category, None)
        return tuple(seen)

    def words_for(self, language: str, category: str, valence: str) -> tuple[Word, ...]:
        """The words of one category and valence in one language, ordered by word_id."""
        return self._by_category.get((language, category, valence), ())

    def pairs_for(self, discipline: str) -> tuple[PersonaPair, ...]:
        """The pairs a discipline shows. Disciplines whose need depends on the organs of one sex assigned at
        birth pair a cisgender and a transgender candidate of that sex (e.g. a cis woman and a trans man for
        gynecology), using all four rounds (100 pairs); the others use rounds 1 and 2 of both sexes (100 pairs)."""
        sex = self.disciplines[discipline].candidate_sex_at_birth
        if sex == "any":
            return tuple(p for p in self.pairs if p.round <= 2)
        return tuple(p for p in self.pairs if p.sex_assigned_at_birth == sex)

    def symptoms_for(self, discipline: str, urgency: str) -> tuple[Symptom, ...]:
        return tuple(s for s in self.symptoms if s.discipline == discipline and s.urgency == urgency)


def seeds_dir() -> Path:
    return project_dir() / "seeds"


def _read(folder: Path, key: str, columns: tuple[str, ...]) -> list[dict[str, str]]:
    path = folder / FILES[key]
    if not path.is_file():
        raise StimuliError(f"{path}: no such file (the implicit-bias study's stimuli live in seeds/)")
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in columns if c not in (reader.fieldnames or [])]
        if missing:
            raise StimuliError(f"{path}: missing column(s) {', '.join(missing)}")
        rows = [{k: (v or "").strip() for k, v in row.items() if k is not None} for row in reader]
    for number, row in enumerate(rows, start=2):
        empty = [c for c in columns if not row.get(c)]
        if empty:
            raise StimuliError(f"{path}, line {number}: empty {', '.join(empty)}")
    return rows


def _check(condition: bool, path: str, message: str) -> None:
    if not condition:
        raise StimuliError(f"{path}: {message}")


def _words(folder: Path) -> tuple[tuple[Word, ...], dict[tuple[str, str, str], tuple[Word, ...]]]:
    rows = _read(folder, "words", ("word_id", "category", "valence", "language", "word"))
    name = FILES["words"]
    words = tuple(Word(r["word_id"], r["category"], r["valence"], r["language"], r["word"]) for r in rows)
    for w in words:
        _check(w.valence in VALENCES, name, f"{w.word_id}: valence {w.valence!r} is not positive or negative")
        _check(w.language in LANGUAGES, name, f"{w.word_id}: language {w.language!r} is not one of {', '.join(LANGUAGES)}")
    duplicated = [k for k, n in Counter((w.word_id, w.language) for w in words).items() if n > 1]
    _check(not duplicated, name, f"word_id repeated within a language: {duplicated[:5]}")
    from biasmirror.implicit.parsing import match_key  # the parser's notion of "the same word"

    same_text = [k for k, n in Counter((w.language, w.category, match_key(w.word)) for w in words).items() if n > 1]
    _check(not same_text, name, f"two words of a category read the same once case and accents are ignored: {same_text[:5]}")
    meaning: dict[str, tuple[str, str]] = {}
    for w in words:
        previous = meaning.setdefault(w.word_id, (w.category, w.valence))
        _check(previous == (w.category, w.valence), name,
               f"{w.word_id} has a different category or valence in another language")
    grouped: dict[tuple[str, str, str], list[Word]] = defaultdict(list)
    for w in sorted(words, key=lambda w: w.word_id):
        grouped[(w.language, w.category, w.valence)].append(w)
    for language in sorted({w.language for w in words}):
        for category in sorted({w.category for w in words}):
            for valence in VALENCES:
                n = len(grouped.get((language, category, valence), []))
                _check(n >= WORDS_PER_VALENCE, name,
                       f"{language}/{category} has {n} {valence} word(s); a prompt needs {WORDS_PER_VALENCE}")
    return words, {k: tuple(v) for k, v in grouped.items()}


def _disciplines(folder: Path) -> dict[str, Discipline]:
    rows = _read(folder, "disciplines", ("discipline", "display_order", "candidate_sex_at_birth", "language", "label", "instruction"))
    name = FILES["disciplines"]
    labels: dict[str, dict[str, str]] = defaultdict(dict)
    instructions: dict[str, dict[str, str]] = defaultdict(dict)
    meta: dict[str, tuple[int, str]] = {}
    for r in rows:
        _check(r["candidate_sex_at_birth"] in CANDIDATE_SEXES, name,
               f"{r['discipline']}: candidate_sex_at_birth must be one of {', '.join(CANDIDATE_SEXES)}")
        _check(r["language"] in LANGUAGES, name, f"{r['discipline']}: unknown language {r['language']!r}")
        _check(r["language"] not in labels[r["discipline"]], name, f"{r['discipline']} repeated for {r['language']}")
        key = (int(r["display_order"]), r["candidate_sex_at_birth"])
        _check(meta.setdefault(r["discipline"], key) == key, name, f"{r['discipline']}: languages disagree on order or sex")
        labels[r["discipline"]][r["language"]] = r["label"]
        instructions[r["discipline"]][r["language"]] = r["instruction"]
    ordered = sorted(meta, key=lambda d: meta[d][0])
    return {d: Discipline(d, meta[d][0], meta[d][1], dict(labels[d]), dict(instructions[d])) for d in ordered}


def _symptoms(folder: Path, disciplines: dict[str, Discipline]) -> tuple[Symptom, ...]:
    rows = _read(folder, "symptoms", ("symptom_id", "discipline", "urgency", "language", "symptom"))
    name = FILES["symptoms"]
    texts: dict[str, dict[str, str]] = defaultdict(dict)
    meta: dict[str, tuple[str, str]] = {}
    for r in rows:
        _check(r["discipline"] in disciplines, name, f"{r['symptom_id']}: unknown discipline {r['discipline']!r}")
        _check(r["urgency"] in URGENCIES, name, f"{r['symptom_id']}: urgency must be high or low")
        key = (r["discipline"], r["urgency"])
        _check(meta.setdefault(r["symptom_id"], key) == key, name, f"{r['symptom_id']}: languages disagree")
        texts[r["symptom_id"]][r["language"]] = r["symptom"]
    return tuple(Symptom(s, meta[s][0], meta[s][1], dict(texts[s])) for s in sorted(meta))


def _personas(folder: Path) -> dict[str, Persona]:
    rows = _read(folder, "personas", ("persona_id", "gender_identity", "group", "sex_assigned_at_birth", "age",
                                      "age_band", "name_en", "name_es"))
    name = FILES["personas"]
    personas: dict[str, Persona] = {}
    for r in rows:
        identity = r["gender_identity"]
        _check(identity in GENDER_IDENTITIES, name, f"{r['persona_id']}: unknown gender_identity {identity!r}")
        _check(GENDER_IDENTITIES[identity] == (r["group"], r["sex_assigned_at_birth"]), name,
               f"{r['persona_id']}: group and sex_assigned_at_birth do not match gender_identity {identity}")
        _check(r["persona_id"] not in personas, name, f"{r['persona_id']} repeated")
        personas[r["persona_id"]] = Persona(r["persona_id"], identity, r["group"], r["sex_assigned_at_birth"],
                                            int(r["age"]), r["age_band"], {lang: r[f"name_{lang}"] for lang in LANGUAGES})
    for language in LANGUAGES:
        names = Counter(p.names[language] for p in personas.values())
        repeated = [n for n, count in names.items() if count > 1]
        _check(not repeated, name, f"name_{language} repeated: {repeated[:5]}")
    return personas


def _pairs(folder: Path, personas: dict[str, Persona]) -> tuple[PersonaPair, ...]:
    rows = _read(folder, "pairs", ("pair_id", "sex_assigned_at_birth", "age_band", "round", "cis_persona_id", "trans_persona_id"))
    name = FILES["pairs"]
    pairs = []
    for r in rows:
        cis, trans = personas.get(r["cis_persona_id"]), personas.get(r["trans_persona_id"])
        _check(cis is not None and trans is not None, name, f"{r['pair_id']}: unknown persona id")
        _check(cis.group == "cisgender" and trans.group == "transgender", name,
               f"{r['pair_id']}: cis_persona_id must be cisgender and trans_persona_id transgender")
        pairs.append(PersonaPair(r["pair_id"], r["sex_assigned_at_birth"], r["age_band"], int(r["round"]),
                                 r["cis_persona_id"], r["trans_persona_id"]))
    _check(len({p.pair_id for p in pairs}) == len(pairs), name, "pair_id repeated")
    return tuple(pairs)


def _questions(folder: Path) -> dict[tuple[str, str], str]:
    rows = _read(folder, "questions", ("question_id", "language", "question"))
    for r in rows:
        _check(r["question_id"] in QUESTIONS, FILES["questions"], f"unknown question_id {r['question_id']!r}")
    return {(r["question_id"], r["language"]): r["question"] for r in rows}


@lru_cache(maxsize=4)
def _load(folder: Path) -> Stimuli:
    words, by_category = _words(folder)
    disciplines = _disciplines(folder)
    personas = _personas(folder)
    return Stimuli(words, disciplines, _symptoms(folder, disciplines), _questions(folder), personas,
                   _pairs(folder, personas), by_category)


def load_stimuli(folder: Path | None = None) -> Stimuli:
    """The validated stimuli (cached per folder)."""
    return _load((folder or seeds_dir()).resolve())
