"""Spanish role nouns (occupations, habits, social roles), masculine -> feminine: the one lexicon of them.

Both the swapper (agreement_es.py decides when such a noun describes the patient and swaps it) and the second
opinion's reading (referents_es.py decides the same thing by its own surface rules) read this list, so a role
noun added once is known to both. The reading also takes the gender of a listed form from here: endings alone
do not tell it for "jefe", "alcalde", "juez", "actriz", and a correct copy that swaps them would be flagged.

Each entry is (masculine, feminine); the feminine is None for a noun of one form for both sexes
("estudiante", "policía", "piloto").

Kinship nouns are the second list here (``KINSHIP_NOUNS``), read by both modules: the swapper swaps one when it
names the patient ("es la tía de ...") and reads it as someone else otherwise; the reading does the same by its
own rules. Partner and patient nouns are not here: each module keeps its own rules for them
(docs/counterfactuals.md).
"""

from __future__ import annotations

from typing import Literal

KinKind = Literal["parent", "kin"]

ROLE_NOUNS: tuple[tuple[str, str | None], ...] = (
    ("maestro", "maestra"), ("enfermero", "enfermera"), ("camarero", "camarera"), ("cocinero", "cocinera"),
    ("profesor", "profesora"), ("abogado", "abogada"), ("conductor", "conductora"), ("jubilado", "jubilada"),
    ("limpiador", "limpiadora"), ("camionero", "camionera"), ("agricultor", "agricultora"), ("fumador", "fumadora"),
    ("exfumador", "exfumadora"), ("bebedor", "bebedora"), ("peatón", "peatona"), ("trabajador", "trabajadora"),
    ("pensionista", None), ("estudiante", None), ("viudo", "viuda"), ("jardinero", "jardinera"), ("albañil", None),
    ("panadero", "panadera"), ("carpintero", "carpintera"), ("cajero", "cajera"), ("dependiente", "dependienta"),
    ("vendedor", "vendedora"), ("funcionario", "funcionaria"), ("empleado", "empleada"), ("obrero", "obrera"),
    ("ganadero", "ganadera"), ("pescador", "pescadora"), ("policía", None), ("bombero", "bombera"),
    ("secretario", "secretaria"), ("administrativo", "administrativa"), ("ingeniero", "ingeniera"),
    ("arquitecto", "arquitecta"), ("psicólogo", "psicóloga"), ("farmacéutico", "farmacéutica"),
    ("peluquero", "peluquera"), ("mecánico", "mecánica"), ("pasajero", "pasajera"), ("ocupante", None),
    ("motorista", None), ("niño", "niña"), ("chico", "chica"), ("anciano", "anciana"), ("contable", None),
    ("militar", None), ("fisioterapeuta", None), ("futbolista", None), ("deportista", None), ("campeón", "campeona"),
    ("director", "directora"), ("presidente", "presidenta"), ("fontanero", "fontanera"), ("costurero", "costurera"),
    ("carnicero", "carnicera"), ("consumidor", "consumidora"), ("cuidador", "cuidadora"),
    ("aficionado", "aficionada"), ("ejecutivo", "ejecutiva"), ("cartero", "cartera"), ("barrendero", "barrendera"),
    ("adicto", "adicta"), ("exadicto", "exadicta"), ("heroinómano", "heroinómana"),
    ("exheroinómano", "exheroinómana"), ("toxicómano", "toxicómana"), ("alcohólico", "alcohólica"), ("jefe", "jefa"),
    ("alcalde", "alcaldesa"), ("actor", "actriz"), ("juez", "jueza"), ("encargado", "encargada"),
    ("supervisor", "supervisora"), ("celador", "celadora"), ("tutor", "tutora"), ("socorrista", None),
    ("piloto", None), ("amo", "ama"), ("pastor", "pastora"), ("exalcohólico", "exalcohólica"), ("auxiliar", None),
    ("ciclista", None), ("mensajero", "mensajera"), ("repartidor", "repartidora"), ("socio", "socia"),
    ("gerocultor", "gerocultora"), ("escritor", "escritora"), ("pintor", "pintora"), ("odontólogo", "odontóloga"),
    ("submarinista", None), ("escalador", "escaladora"), ("entrenador", "entrenadora"), ("jugador", "jugadora"),
    ("fundador", "fundadora"), ("curador", "curadora"), ("escultor", "escultora"), ("autor", "autora"),
    ("técnico", "técnica"), ("médico", "médica"), ("cirujano", "cirujana"),
    # trades, sports and studies a triage note names the patient by
    ("informático", "informática"), ("portero", "portera"), ("granjero", "granjera"), ("pescadero", "pescadera"),
    ("frutero", "frutera"), ("zapatero", "zapatera"), ("minero", "minera"), ("marinero", "marinera"),
    ("jornalero", "jornalera"), ("temporero", "temporera"), ("montañero", "montañera"), ("torero", "torera"),
    ("bailarín", "bailarina"), ("fotógrafo", "fotógrafa"), ("alumno", "alumna"), ("monitor", "monitora"),
    ("azafato", "azafata"), ("tornero", "tornera"), ("soldador", "soldadora"), ("catedrático", "catedrática"),
    ("biólogo", "bióloga"), ("geólogo", "geóloga"), ("arqueólogo", "arqueóloga"), ("vigilante", None),
    ("conserje", None), ("recepcionista", None), ("transportista", None),
    # a carrier, a user of a device or service, a sales agent
    ("portador", "portadora"), ("usuario", "usuaria"), ("comercial", None),
    # owners and artists, and nouns of one form a note opens with ("Turista inglés", "La testigo del atraco")
    ("dueño", "dueña"), ("propietario", "propietaria"), ("compositor", "compositora"), ("cantante", None),
    ("gerente", None), ("turista", None), ("poeta", None), ("testigo", None), ("lactante", None),
    ("taxista", None), ("sargento", None),
    # young people named by a colloquial noun ("El chaval se niega a comer")
    ("chaval", "chavala"), ("muchacho", "muchacha"),
    # round 15: religious life ("Monja de clausura de 78 años", "religiosa de la orden"), a midwife
    ("monje", "monja"), ("novicio", "novicia"), ("religioso", "religiosa"), ("matrón", "matrona"),
    # round 17: titles and offices whose feminine no ending rule gives ("La abadesa del monasterio", "concejala")
    ("abad", "abadesa"), ("concejal", "concejala"), ("duque", "duquesa"), ("conde", "condesa"),
    ("barón", "baronesa"), ("marqués", "marquesa"), ("príncipe", "princesa"), ("rey", "reina"),
    ("emperador", "emperatriz"), ("sacerdote", "sacerdotisa"), ("diácono", "diaconisa"), ("profeta", "profetisa"),
    ("héroe", "heroína"), ("guardés", "guardesa"), ("rector", "rectora"), ("decano", "decana"),
    ("ministro", "ministra"), ("diputado", "diputada"), ("senador", "senadora"), ("embajador", "embajadora"),
    ("vicepresidente", "vicepresidenta"), ("gobernador", "gobernadora"), ("edil", None), ("cónsul", None))


def masculine_to_feminine() -> dict[str, str | None]:
    """Masculine (or epicene) form -> feminine form, None for an epicene noun."""
    return dict(ROLE_NOUNS)


def forms() -> frozenset[str]:
    """Every form of the lexicon, masculine, feminine and epicene."""
    return frozenset(m for m, _ in ROLE_NOUNS) | frozenset(f for _, f in ROLE_NOUNS if f)


def sexes() -> dict[str, str]:
    """Every form of two-gender entries -> the sex it names ('F' or 'M'); epicene nouns are left out."""
    return {m: "M" for m, f in ROLE_NOUNS if f} | {f: "F" for _, f in ROLE_NOUNS if f}


# kinship nouns (masculine, feminine, kind): a ``parent`` noun (a parent, grandparent, aunt or uncle, godparent)
# names the patient before "de" or apposed ("Abuela de tres nietos, ..."); a ``kin`` noun (a child, a sibling, a
# cousin, an in-law, a step relative) only as the patient's predicate ("es hija única")
KINSHIP_NOUNS: tuple[tuple[str, str, KinKind], ...] = (
    ("padre", "madre", "parent"), ("abuelo", "abuela", "parent"), ("bisabuelo", "bisabuela", "parent"),
    ("tío", "tía", "parent"), ("padrino", "madrina", "parent"),
    ("hijo", "hija", "kin"), ("hermano", "hermana", "kin"), ("nieto", "nieta", "kin"), ("sobrino", "sobrina", "kin"),
    ("primo", "prima", "kin"), ("yerno", "nuera", "kin"), ("suegro", "suegra", "kin"), ("cuñado", "cuñada", "kin"),
    ("hermanastro", "hermanastra", "kin"), ("padrastro", "madrastra", "kin"), ("hijastro", "hijastra", "kin"),
    ("consuegro", "consuegra", "kin"), ("ahijado", "ahijada", "kin"), ("bisnieto", "bisnieta", "kin"))


def kinship_pairs(*kinds: KinKind) -> dict[str, str]:
    """Feminine -> masculine kinship noun of ``kinds`` (all kinds when none is given)."""
    return {f: m for m, f, kind in KINSHIP_NOUNS if not kinds or kind in kinds}


def kinship_forms(*kinds: KinKind) -> frozenset[str]:
    """Every kinship noun of ``kinds``, feminine and masculine (all kinds when none is given)."""
    pairs = kinship_pairs(*kinds)
    return frozenset(pairs) | frozenset(pairs.values())
