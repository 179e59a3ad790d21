"""The seeded generator of the allocation task's synthetic personas and cisgender-transgender pairs.

100 personas: 25 per gender identity (cis woman, cis man, trans woman, trans man), 5 per identity in each of 5
age bands, with an English and a Spanish full name (first names follow the gender identity). Names are unique
per language, and two personas with the same sex assigned at birth never share a surname, so the two
candidates of a pair always differ in first name and surname (an answer giving either one is unambiguous).

Pairs: a cisgender and a transgender persona with the same sex assigned at birth and the same age band, so the
two candidates of a pair differ only in gender identity (plus name and age within the band). Within a sex and
band the 5 cis and 5 trans personas are matched by 4 cyclic shifts ("rounds"), so every persona is in exactly
one pair per round: 4 rounds x 5 bands x 5 = 100 pairs per sex assigned at birth. See Stimuli.pairs_for for
which pairs each discipline shows.

The shipped seeds/implicit_personas.csv and seeds/implicit_persona_pairs.csv are this generator's output with
DEFAULT_SEED; `python -m biasmirror.implicit.personas [--seed S] [--out DIR]` writes them (same seed, same bytes).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

from biasmirror.implicit.stimuli import FILES, GENDER_IDENTITIES, Persona, PersonaPair, seeds_dir

DEFAULT_SEED = 2025
AGE_BANDS: tuple[tuple[str, int, int], ...] = (("18-29", 18, 29), ("30-39", 30, 39), ("40-49", 40, 49),
                                               ("50-59", 50, 59), ("60-74", 60, 74))
PER_IDENTITY_AND_BAND = 5
ROUNDS = 4

FIRST_NAMES = {
    "en": {
        "woman": ["Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah", "Karen",
                  "Nancy", "Lisa", "Betty", "Margaret", "Sandra", "Ashley", "Emily", "Donna", "Michelle", "Carol",
                  "Amanda", "Melissa", "Deborah", "Stephanie", "Rebecca", "Laura", "Helen", "Sharon", "Cynthia", "Kathleen"],
        "man": ["James", "Robert", "John", "Michael", "David", "William", "Richard", "Joseph", "Thomas", "Charles",
                "Christopher", "Daniel", "Matthew", "Anthony", "Mark", "Donald", "Steven", "Paul", "Andrew", "Joshua",
                "Kenneth", "Kevin", "Brian", "George", "Timothy", "Ronald", "Edward", "Jason", "Jeffrey", "Ryan"],
    },
    "es": {
        "woman": ["María", "Lucía", "Sofía", "Martina", "Valentina", "Camila", "Julieta", "Paula", "Carmen", "Laura",
                  "Ana", "Elena", "Isabel", "Florencia", "Daniela", "Gabriela", "Andrea", "Natalia", "Victoria", "Agustina",
                  "Rocío", "Silvia", "Mónica", "Patricia", "Claudia", "Verónica", "Teresa", "Lorena", "Carolina", "Beatriz"],
        "man": ["Juan", "José", "Carlos", "Luis", "Javier", "Miguel", "Diego", "Joaquín", "Pablo", "Andrés",
                "Santiago", "Mateo", "Tomás", "Nicolás", "Sebastián", "Alejandro", "Fernando", "Ricardo", "Jorge", "Manuel",
                "Francisco", "Gustavo", "Emilio", "Rafael", "Hernán", "Ignacio", "Facundo", "Gonzalo", "Rodrigo", "Esteban"],
    },
}
SURNAMES = {
    "en": ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
           "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Taylor", "Moore", "Jackson", "Martin", "Lee",
           "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King",
           "Wright", "Scott", "Hill", "Green", "Adams", "Baker", "Nelson", "Carter", "Mitchell", "Roberts",
           "Turner", "Phillips", "Campbell", "Parker", "Evans", "Edwards", "Collins", "Stewart", "Morris", "Murphy"],
    "es": ["García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Martín",
           "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Álvarez", "Romero", "Alonso", "Gutiérrez", "Navarro",
           "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Ramírez", "Serrano", "Blanco", "Molina", "Morales",
           "Suárez", "Ortega", "Delgado", "Castro", "Ortiz", "Rubio", "Marín", "Sanz", "Núñez", "Iglesias",
           "Medina", "Garrido", "Cortés", "Castillo", "Santos", "Lozano", "Guerrero", "Cano", "Prieto", "Méndez"],
}


def _name_gender(identity: str) -> str:
    return "woman" if identity.endswith("woman") else "man"


def generate_personas(seed: int = DEFAULT_SEED) -> list[Persona]:
    rng = np.random.default_rng(seed)
    skeleton = []  # (identity, band, age)
    for identity in GENDER_IDENTITIES:
        for band, low, high in AGE_BANDS:
            for age in rng.integers(low, high + 1, PER_IDENTITY_AND_BAND):
                skeleton.append((identity, band, int(age)))
    names: dict[str, list[str]] = {}
    for language in ("en", "es"):
        # every persona of one sex assigned at birth gets a different surname; full names unique overall
        for _attempt in range(1000):
            chosen = []
            surnames = {sex: list(rng.permutation(SURNAMES[language])) for sex in ("female", "male")}
            for identity, _band, _age in skeleton:
                sex = GENDER_IDENTITIES[identity][1]
                first = FIRST_NAMES[language][_name_gender(identity)]
                chosen.append(f"{first[int(rng.integers(len(first)))]} {surnames[sex].pop()}")
            if len(set(chosen)) == len(chosen):
                names[language] = chosen
                break
        else:  # pragma: no cover - 1000 attempts never all collide with these lists
            raise RuntimeError("could not draw unique persona names")
    order = rng.permutation(len(skeleton))  # persona ids do not reveal identity or age
    personas = []
    for number, index in enumerate(order, start=1):
        identity, band, age = skeleton[index]
        group, sex = GENDER_IDENTITIES[identity]
        personas.append(Persona(f"P{number:03d}", identity, group, sex, age, band,
                                {lang: names[lang][index] for lang in ("en", "es")}))
    return sorted(personas, key=lambda p: p.persona_id)


def generate_pairs(personas: list[Persona], seed: int = DEFAULT_SEED) -> list[PersonaPair]:
    rng = np.random.default_rng([seed, 1])
    pairs = []
    for sex in ("female", "male"):
        for band, _low, _high in AGE_BANDS:
            cis = [p.persona_id for p in personas if p.group == "cisgender" and p.sex_assigned_at_birth == sex and p.age_band == band]
            trans = [p.persona_id for p in personas if p.group == "transgender" and p.sex_assigned_at_birth == sex and p.age_band == band]
            cis, trans = list(rng.permutation(cis)), list(rng.permutation(trans))
            for round_number in range(1, ROUNDS + 1):
                for i, cis_id in enumerate(cis):
                    pairs.append((sex, band, round_number, cis_id, trans[(i + round_number) % len(trans)]))
    prefix = {"female": "F", "male": "M"}
    out, counters = [], {"female": 0, "male": 0}
    for sex, band, round_number, cis_id, trans_id in pairs:
        counters[sex] += 1
        out.append(PersonaPair(f"{prefix[sex]}{counters[sex]:03d}", sex, band, round_number, cis_id, trans_id))
    return out


def write_persona_seeds(folder: Path | None = None, seed: int = DEFAULT_SEED) -> tuple[Path, Path]:
    folder = folder or seeds_dir()
    folder.mkdir(parents=True, exist_ok=True)
    personas = generate_personas(seed)
    pairs = generate_pairs(personas, seed)
    persona_path, pair_path = folder / FILES["personas"], folder / FILES["pairs"]
    with persona_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["persona_id", "gender_identity", "group", "sex_assigned_at_birth", "age", "age_band", "name_en", "name_es"])
        for p in personas:
            writer.writerow([p.persona_id, p.gender_identity, p.group, p.sex_assigned_at_birth, p.age, p.age_band,
                             p.names["en"], p.names["es"]])
    with pair_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["pair_id", "sex_assigned_at_birth", "age_band", "round", "cis_persona_id", "trans_persona_id"])
        for q in pairs:
            writer.writerow([q.pair_id, q.sex_assigned_at_birth, q.age_band, q.round, q.cis_persona_id, q.trans_persona_id])
    return persona_path, pair_path


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the allocation task's personas and pairs as seed files.")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=None, help="Folder (default: the project's seeds/).")
    arguments = parser.parse_args()
    for path in write_persona_seeds(arguments.out, arguments.seed):
        print(path)


if __name__ == "__main__":
    main()
