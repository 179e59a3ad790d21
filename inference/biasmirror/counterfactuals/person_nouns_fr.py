"""French role nouns with a feminine and a masculine form: the one lexicon of them.

Both the swapper (agreement_fr.py decides, from its parse, when such a noun describes the patient) and the
second opinion's reading (referents_fr.py decides the same thing by its own surface rules, with the Lefff for
every other word) read this list, so a role noun added once is known to both. The reading needs it most for
the forms the Lefff lacks or gives no gender ("autrice", "cheffe", "docteure", "maître-nageuse", "artisane",
"policière", "éducatrice"): without it a correct copy that swaps them is flagged as a content change.

Each entry is (feminine, masculine). A former role keeps its noun's gender ("ex-vendeuse", "ex-coiffeur"):
``forms()`` and ``sexes()`` add the "ex-" form of every entry that is not one already.

Kinship nouns are the second list here (``KINSHIP_NOUNS``), read by both modules the same way: the swapper swaps
one when it names the patient ("elle est la tante de ...") and reads it as someone else otherwise; the reading
does the same by its own rules. Partner and patient nouns are not here: each module keeps its own rules for them
(docs/counterfactuals.md).
"""

from __future__ import annotations

from typing import Literal

KinKind = Literal["parent", "kin"]

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
    ("maître-nageuse", "maître-nageur"), ("docteure", "docteur"), ("tutrice", "tuteur"),
    # round 9: trades, sports and situations of triage notes
    ("chirurgienne", "chirurgien"), ("championne", "champion"), ("entraîneuse", "entraîneur"),
    ("entrepreneuse", "entrepreneur"), ("auto-entrepreneuse", "auto-entrepreneur"),
    ("sapeuse-pompière", "sapeur-pompier"), ("non-voyante", "non-voyant"), ("malvoyante", "malvoyant"),
    ("plongeuse", "plongeur"), ("grimpeuse", "grimpeur"), ("coureuse", "coureur"), ("nageuse", "nageur"),
    ("randonneuse", "randonneur"), ("chanteuse", "chanteur"), ("danseuse", "danseur"),
    ("chirurgienne-dentiste", "chirurgien-dentiste"), ("infirmière-anesthésiste", "infirmier-anesthésiste"),
    # round 12: where the patient lives ("résidente en EHPAD")
    ("résidente", "résident"),
    # round 16: riders, sports and travel (not walkers or hunters, who are more often the ones who find the patient)
    ("motarde", "motard"), ("skieuse", "skieur"), ("surfeuse", "surfeur"), ("footballeuse", "footballeur"),
    ("rugbywoman", "rugbyman"), ("vacancière", "vacancier"), ("voyageuse", "voyageur"),
    # round 17: farms, shops, building sites and offices; people in the street (not joggers, who find patients)
    ("exploitante", "exploitant"), ("éleveuse", "éleveur"), ("viticultrice", "viticulteur"),
    ("vigneronne", "vigneron"), ("maraîchère", "maraîcher"), ("bergère", "berger"), ("pêcheuse", "pêcheur"),
    ("apicultrice", "apiculteur"), ("horticultrice", "horticulteur"), ("gérante", "gérant"),
    ("négociante", "négociant"), ("représentante", "représentant"), ("banquière", "banquier"),
    ("maçonne", "maçon"), ("couvreuse", "couvreur"), ("esthéticienne", "esthéticien"), ("ingénieure", "ingénieur"),
    ("actrice", "acteur"), ("assistante", "assistant"), ("surveillante", "surveillant"),
    ("militante", "militant"), ("manifestante", "manifestant"), ("usagère", "usager"),)


def sexes() -> dict[str, str]:
    """Every form (singular, "ex-" forms included) -> the sex it names ('F' or 'M')."""
    out = {f: "F" for f, _ in ROLE_NOUNS} | {m: "M" for _, m in ROLE_NOUNS}
    return out | {"ex-" + word: sex for word, sex in out.items() if not word.startswith("ex-")}


def forms() -> frozenset[str]:
    """Every form of the lexicon, "ex-" forms included."""
    return frozenset(sexes())


# kinship nouns (feminine, masculine, kind): a ``parent`` noun (a parent, grandparent, aunt or uncle, godparent)
# names the patient after a comma or before "de" ("Grand-mère de 80 ans, elle ..."); a ``kin`` noun (a child,
# a sibling, a cousin, an in-law) only as the patient's predicate ("elle est fille unique")
KINSHIP_NOUNS: tuple[tuple[str, str, KinKind], ...] = (
    ("mère", "père", "parent"), ("grand-mère", "grand-père", "parent"),
    ("arrière-grand-mère", "arrière-grand-père", "parent"), ("tante", "oncle", "parent"),
    ("marraine", "parrain", "parent"), ("maman", "papa", "parent"),
    ("fille", "fils", "kin"), ("petite-fille", "petit-fils", "kin"), ("sœur", "frère", "kin"),
    ("nièce", "neveu", "kin"), ("cousine", "cousin", "kin"), ("belle-fille", "gendre", "kin"),
    ("belle-mère", "beau-père", "kin"), ("belle-sœur", "beau-frère", "kin"), ("demi-sœur", "demi-frère", "kin"),)
# other spellings of a listed form
_KIN_SPELLINGS = {"soeur": "sœur", "belle-soeur": "belle-sœur", "demi-soeur": "demi-sœur"}


def kinship_pairs(*kinds: KinKind) -> dict[str, str]:
    """Feminine -> masculine kinship noun of ``kinds`` (all kinds when none is given), other spellings included
    first, so that a mapping read backwards (masculine -> feminine) ends on the listed spelling ("sœur")."""
    pairs = {f: m for f, m, kind in KINSHIP_NOUNS if not kinds or kind in kinds}
    return {other: pairs[f] for other, f in _KIN_SPELLINGS.items() if f in pairs} | pairs


def kinship_forms(*kinds: KinKind) -> frozenset[str]:
    """Every kinship noun of ``kinds``, feminine and masculine (all kinds when none is given)."""
    pairs = kinship_pairs(*kinds)
    return frozenset(pairs) | frozenset(pairs.values())
