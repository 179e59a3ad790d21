"""French role nouns with a feminine and a masculine form: the one lexicon of them.

Both the swapper (agreement_fr.py decides, from its parse, when such a noun describes the patient) and the
second opinion's reading (referents_fr.py decides the same thing by its own surface rules, with the Lefff for
every other word) read this list, so a role noun added once is known to both. The reading needs it most for
the forms the Lefff lacks or gives no gender ("autrice", "cheffe", "docteure", "maître-nageuse", "artisane",
"policière", "éducatrice"): without it a correct copy that swaps them is flagged as a content change.

Each entry is (feminine, masculine). A former role keeps its noun's gender ("ex-vendeuse", "ex-coiffeur"):
``forms()`` and ``sexes()`` add the "ex-" form of every entry that is not one already. Kinship, partner and
patient nouns are not here: each module keeps its own rules for them (docs/counterfactuals.md).
"""

from __future__ import annotations

ROLE_NOUNS: tuple[tuple[str, str], ...] = (
    ("conductrice", "conducteur"), ("passagère", "passager"), ("piétonne", "piéton"), ("infirmière", "infirmier"),
    ("aide-soignante", "aide-soignant"), ("retraitée", "retraité"), ("veuve", "veuf"), ("étudiante", "étudiant"),
    ("enseignante", "enseignant"), ("agricultrice", "agriculteur"), ("ouvrière", "ouvrier"), ("employée", "employé"),
    ("boulangère", "boulanger"), ("serveuse", "serveur"), ("vendeuse", "vendeur"), ("cuisinière", "cuisinier"),
    ("avocate", "avocat"), ("chauffeuse", "chauffeur"), ("fumeuse", "fumeur"), ("ex-fumeuse", "ex-fumeur"),
    ("salariée", "salarié"), ("commerçante", "commerçant"), ("artisane", "artisan"), ("policière", "policier"),
    ("caissière", "caissier"), ("coiffeuse", "coiffeur"), ("institutrice", "instituteur"),
    ("directrice", "directeur"), ("pharmacienne", "pharmacien"), ("technicienne", "technicien"),
    ("mécanicienne", "mécanicien"), ("électricienne", "électricien"), ("informaticienne", "informaticien"),
    ("éducatrice", "éducateur"), ("lycéenne", "lycéen"), ("collégienne", "collégien"), ("chômeuse", "chômeur"),
    ("sportive", "sportif"), ("buveuse", "buveur"), ("divorcée", "divorcé"), ("mariée", "marié"),
    ("travailleuse", "travailleur"), ("patronne", "patron"), ("musicienne", "musicien"), ("livreuse", "livreur"),
    ("factrice", "facteur"), ("ancienne", "ancien"), ("bouchère", "boucher"), ("charcutière", "charcutier"),
    ("épicière", "épicier"), ("fermière", "fermier"), ("jardinière", "jardinier"), ("pâtissière", "pâtissier"),
    ("couturière", "couturier"), ("menuisière", "menuisier"), ("plombière", "plombier"), ("aidante", "aidant"),
    ("cavalière", "cavalier"), ("gardienne", "gardien"), ("paysanne", "paysan"), ("autrice", "auteur"),
    ("brancardière", "brancardier"), ("ambulancière", "ambulancier"), ("cheffe", "chef"),
    ("maître-nageuse", "maître-nageur"), ("docteure", "docteur"), ("tutrice", "tuteur"),)


def sexes() -> dict[str, str]:
    """Every form (singular, "ex-" forms included) -> the sex it names ('F' or 'M')."""
    out = {f: "F" for f, _ in ROLE_NOUNS} | {m: "M" for _, m in ROLE_NOUNS}
    return out | {"ex-" + word: sex for word, sex in out.items() if not word.startswith("ex-")}


def forms() -> frozenset[str]:
    """Every form of the lexicon, "ex-" forms included."""
    return frozenset(sexes())
