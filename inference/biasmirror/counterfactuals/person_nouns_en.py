"""English nouns that name a person of one sex, paired with the other sex's noun: the one lexicon of them.

Both the swapper (agreement_en.py decides when such a noun names the patient) and the second opinion's reading
(referents_en.py decides the same thing its own way) read their word lists from here, so a noun added once is
known to both. Partner nouns (husband/wife, boyfriend/girlfriend, fiance/fiancee) are not here: they say the
partner's sex and live in the lexicon file's ``pairs`` and ``partners`` sections (lexicons/en.json);
"girl"/"boy" are swapped everywhere by the same section.

Each entry is (female, male, female plural, male plural, kind). The kind says where the noun can name the
patient (docs/counterfactuals.md, "English role and kinship nouns"):

* ``sex``: a word for a woman or a man ("woman", "female");
* ``role``: an occupation, a title or a social role ("stewardess", "postmaster", "sportswoman", "widow");
* ``parent``: a parent or grandparent ("mother of two", "a new grandfather");
* ``kin``: any other relative (a child, a sibling, an aunt or a niece, an in-law): the patient's only as the
  patient's predicate or coordinated with a noun that names the patient ("she is the eldest daughter", "he is
  the nephew and sole caregiver").

Plurals are listed so that the readers know them as other people (a plural never names the one patient).
Pairs whose male form is mostly another word are left out on purpose: "mistress"/"master" ("master's degree"),
"countess"/"count" (a blood count), "goddess"/"god".
"""

from __future__ import annotations

from typing import Literal

Kind = Literal["sex", "role", "parent", "kin"]

PERSON_NOUNS: tuple[tuple[str, str, str, str, Kind], ...] = (
    # words for a woman or a man
    ("woman", "man", "women", "men", "sex"),
    ("lady", "gentleman", "ladies", "gentlemen", "sex"),
    ("female", "male", "females", "males", "sex"),
    # (the British everyday words for a young woman or man: "the lad says he was kicked")
    ("lass", "lad", "lasses", "lads", "sex"),
    # occupations and titles in -ess, -woman/-man, -maid, -mistress/-master and others
    ("waitress", "waiter", "waitresses", "waiters", "role"),
    ("actress", "actor", "actresses", "actors", "role"),
    ("stewardess", "steward", "stewardesses", "stewards", "role"),
    ("hostess", "host", "hostesses", "hosts", "role"),
    ("heroine", "hero", "heroines", "heroes", "role"),
    ("princess", "prince", "princesses", "princes", "role"),
    ("duchess", "duke", "duchesses", "dukes", "role"),
    ("empress", "emperor", "empresses", "emperors", "role"),
    ("queen", "king", "queens", "kings", "role"),
    ("abbess", "abbot", "abbesses", "abbots", "role"),
    ("priestess", "priest", "priestesses", "priests", "role"),
    ("seamstress", "tailor", "seamstresses", "tailors", "role"),
    ("laundress", "launderer", "laundresses", "launderers", "role"),
    ("masseuse", "masseur", "masseuses", "masseurs", "role"),
    ("comedienne", "comedian", "comediennes", "comedians", "role"),
    ("nun", "monk", "nuns", "monks", "role"),
    ("barmaid", "barman", "barmaids", "barmen", "role"),
    ("milkmaid", "milkman", "milkmaids", "milkmen", "role"),
    ("headmistress", "headmaster", "headmistresses", "headmasters", "role"),
    ("matriarch", "patriarch", "matriarchs", "patriarchs", "role"),
    ("postmistress", "postmaster", "postmistresses", "postmasters", "role"),
    ("schoolmistress", "schoolmaster", "schoolmistresses", "schoolmasters", "role"),
    ("landlady", "landlord", "landladies", "landlords", "role"),
    ("housewife", "househusband", "housewives", "househusbands", "role"),
    ("widow", "widower", "widows", "widowers", "role"),
    ("bride", "groom", "brides", "grooms", "role"),
    ("schoolgirl", "schoolboy", "schoolgirls", "schoolboys", "role"),
    ("policewoman", "policeman", "policewomen", "policemen", "role"),
    ("firewoman", "fireman", "firewomen", "firemen", "role"),
    ("businesswoman", "businessman", "businesswomen", "businessmen", "role"),
    ("saleswoman", "salesman", "saleswomen", "salesmen", "role"),
    ("fisherwoman", "fisherman", "fisherwomen", "fishermen", "role"),
    ("chairwoman", "chairman", "chairwomen", "chairmen", "role"),
    ("congresswoman", "congressman", "congresswomen", "congressmen", "role"),
    ("sportswoman", "sportsman", "sportswomen", "sportsmen", "role"),
    ("postwoman", "postman", "postwomen", "postmen", "role"),
    ("craftswoman", "craftsman", "craftswomen", "craftsmen", "role"),
    ("countrywoman", "countryman", "countrywomen", "countrymen", "role"),
    ("horsewoman", "horseman", "horsewomen", "horsemen", "role"),
    ("camerawoman", "cameraman", "camerawomen", "cameramen", "role"),
    ("servicewoman", "serviceman", "servicewomen", "servicemen", "role"),
    ("forewoman", "foreman", "forewomen", "foremen", "role"),
    ("spokeswoman", "spokesman", "spokeswomen", "spokesmen", "role"),
    ("handywoman", "handyman", "handywomen", "handymen", "role"),
    ("repairwoman", "repairman", "repairwomen", "repairmen", "role"),
    ("doorwoman", "doorman", "doorwomen", "doormen", "role"),
    ("patrolwoman", "patrolman", "patrolwomen", "patrolmen", "role"),
    ("councilwoman", "councilman", "councilwomen", "councilmen", "role"),
    ("alderwoman", "alderman", "alderwomen", "aldermen", "role"),
    ("tradeswoman", "tradesman", "tradeswomen", "tradesmen", "role"),
    ("stateswoman", "statesman", "stateswomen", "statesmen", "role"),
    ("yachtswoman", "yachtsman", "yachtswomen", "yachtsmen", "role"),
    ("markswoman", "marksman", "markswomen", "marksmen", "role"),
    ("frontierswoman", "frontiersman", "frontierswomen", "frontiersmen", "role"),
    ("washerwoman", "washerman", "washerwomen", "washermen", "role"),
    ("noblewoman", "nobleman", "noblewomen", "noblemen", "role"),
    ("churchwoman", "churchman", "churchwomen", "churchmen", "role"),
    ("laywoman", "layman", "laywomen", "laymen", "role"),
    ("newswoman", "newsman", "newswomen", "newsmen", "role"),
    ("anchorwoman", "anchorman", "anchorwomen", "anchormen", "role"),
    ("weatherwoman", "weatherman", "weatherwomen", "weathermen", "role"),
    ("cowgirl", "cowboy", "cowgirls", "cowboys", "role"),
    ("deliverywoman", "deliveryman", "deliverywomen", "deliverymen", "role"),
    ("linewoman", "lineman", "linewomen", "linemen", "role"),
    ("stuntwoman", "stuntman", "stuntwomen", "stuntmen", "role"),
    ("groundswoman", "groundsman", "groundswomen", "groundsmen", "role"),
    ("signalwoman", "signalman", "signalwomen", "signalmen", "role"),
    ("watchwoman", "watchman", "watchwomen", "watchmen", "role"),
    ("ferrywoman", "ferryman", "ferrywomen", "ferrymen", "role"),
    ("ombudswoman", "ombudsman", "ombudswomen", "ombudsmen", "role"),
    ("draughtswoman", "draughtsman", "draughtswomen", "draughtsmen", "role"),
    ("draftswoman", "draftsman", "draftswomen", "draftsmen", "role"),
    # the British cabin-crew pair: "air hostess" is the woman's usual title, "air steward" the man's (before
    # "stewardess"/"hostess" alone, which pair with "steward"/"host")
    ("air hostess", "air steward", "air hostesses", "air stewards", "role"),
    ("lollipop lady", "lollipop man", "lollipop ladies", "lollipop men", "role"),
    ("dinner lady", "dinner man", "dinner ladies", "dinner men", "role"),
    # (the other British "... lady" jobs, whose man is a "... man", never a "... gentleman")
    ("tea lady", "tea man", "tea ladies", "tea men", "role"),
    ("lunch lady", "lunch man", "lunch ladies", "lunch men", "role"),
    ("cleaning lady", "cleaning man", "cleaning ladies", "cleaning men", "role"),
    ("clergywoman", "clergyman", "clergywomen", "clergymen", "role"),
    ("crewwoman", "crewman", "crewwomen", "crewmen", "role"),
    ("airwoman", "airman", "airwomen", "airmen", "role"),
    ("guardswoman", "guardsman", "guardswomen", "guardsmen", "role"),
    ("frontwoman", "frontman", "frontwomen", "frontmen", "role"),
    ("boatwoman", "boatman", "boatwomen", "boatmen", "role"),
    ("lineswoman", "linesman", "lineswomen", "linesmen", "role"),
    ("ambulancewoman", "ambulanceman", "ambulancewomen", "ambulancemen", "role"),
    ("oarswoman", "oarsman", "oarswomen", "oarsmen", "role"),
    ("assemblywoman", "assemblyman", "assemblywomen", "assemblymen", "role"),
    ("garbagewoman", "garbageman", "garbagewomen", "garbagemen", "role"),
    ("choirgirl", "choirboy", "choirgirls", "choirboys", "role"),
    ("ballgirl", "ballboy", "ballgirls", "ballboys", "role"),
    ("papergirl", "paperboy", "papergirls", "paperboys", "role"),
    ("bellgirl", "bellboy", "bellgirls", "bellboys", "role"),
    ("stablegirl", "stableboy", "stablegirls", "stableboys", "role"),
    ("bridesmaid", "groomsman", "bridesmaids", "groomsmen", "role"),
    ("sorceress", "sorcerer", "sorceresses", "sorcerers", "role"),
    ("baroness", "baron", "baronesses", "barons", "role"),
    ("viscountess", "viscount", "viscountesses", "viscounts", "role"),
    ("marchioness", "marquess", "marchionesses", "marquesses", "role"),
    ("dustwoman", "dustman", "dustwomen", "dustmen", "role"),
    ("binwoman", "binman", "binwomen", "binmen", "role"),
    ("workwoman", "workman", "workwomen", "workmen", "role"),
    ("kinswoman", "kinsman", "kinswomen", "kinsmen", "role"),
    ("tribeswoman", "tribesman", "tribeswomen", "tribesmen", "role"),
    ("townswoman", "townsman", "townswomen", "townsmen", "role"),
    ("herdswoman", "herdsman", "herdswomen", "herdsmen", "role"),
    ("huntswoman", "huntsman", "huntswomen", "huntsmen", "role"),
    ("stockwoman", "stockman", "stockwomen", "stockmen", "role"),
    ("cattlewoman", "cattleman", "cattlewomen", "cattlemen", "role"),
    ("helmswoman", "helmsman", "helmswomen", "helmsmen", "role"),
    ("swordswoman", "swordsman", "swordswomen", "swordsmen", "role"),
    # parents and grandparents
    ("mother", "father", "mothers", "fathers", "parent"),
    ("mom", "dad", "moms", "dads", "parent"),
    ("mum", "dad", "mums", "dads", "parent"),
    ("mommy", "daddy", "mommies", "daddies", "parent"),
    ("mummy", "daddy", "mummies", "daddies", "parent"),
    ("grandmother", "grandfather", "grandmothers", "grandfathers", "parent"),
    ("grandma", "grandpa", "grandmas", "grandpas", "parent"),
    ("granny", "grandad", "grannies", "grandads", "parent"),
    ("nan", "grandad", "nans", "grandads", "parent"),
    ("gran", "granddad", "grans", "granddads", "parent"),
    ("great-grandmother", "great-grandfather", "great-grandmothers", "great-grandfathers", "parent"),
    ("great-grandma", "great-grandpa", "great-grandmas", "great-grandpas", "parent"),
    ("stepmother", "stepfather", "stepmothers", "stepfathers", "parent"),
    ("stepmom", "stepdad", "stepmoms", "stepdads", "parent"),
    ("stepmum", "stepdad", "stepmums", "stepdads", "parent"),
    ("godmother", "godfather", "godmothers", "godfathers", "parent"),
    ("mother-in-law", "father-in-law", "mothers-in-law", "fathers-in-law", "parent"),
    # other relatives
    ("daughter", "son", "daughters", "sons", "kin"),
    ("stepdaughter", "stepson", "stepdaughters", "stepsons", "kin"),
    ("granddaughter", "grandson", "granddaughters", "grandsons", "kin"),
    ("great-granddaughter", "great-grandson", "great-granddaughters", "great-grandsons", "kin"),
    ("goddaughter", "godson", "goddaughters", "godsons", "kin"),
    ("daughter-in-law", "son-in-law", "daughters-in-law", "sons-in-law", "kin"),
    ("sister", "brother", "sisters", "brothers", "kin"),
    ("stepsister", "stepbrother", "stepsisters", "stepbrothers", "kin"),
    ("half-sister", "half-brother", "half-sisters", "half-brothers", "kin"),
    ("sister-in-law", "brother-in-law", "sisters-in-law", "brothers-in-law", "kin"),
    ("aunt", "uncle", "aunts", "uncles", "kin"),
    ("niece", "nephew", "nieces", "nephews", "kin"),
    ("great-aunt", "great-uncle", "great-aunts", "great-uncles", "kin"),
    ("great-niece", "great-nephew", "great-nieces", "great-nephews", "kin"),
    ("grandniece", "grandnephew", "grandnieces", "grandnephews", "kin"),
)


def pairs(*kinds: Kind) -> dict[str, str]:
    """Female singular -> male singular of the entries of ``kinds`` (all kinds when none is given)."""
    out: dict[str, str] = {}
    for female, male, _, _, kind in PERSON_NOUNS:
        if not kinds or kind in kinds:
            out.setdefault(female, male)
    return out


def male_to_female(*kinds: Kind) -> dict[str, str]:
    """Male singular -> female singular; the first entry wins ("dad" -> "mom", not "mum")."""
    out: dict[str, str] = {}
    for female, male, _, _, kind in PERSON_NOUNS:
        if not kinds or kind in kinds:
            out.setdefault(male, female)
    return out


def sexes(*kinds: Kind) -> dict[str, str]:
    """Every singular form of ``kinds`` -> the sex it names ('F' or 'M')."""
    return {f: "F" for f in pairs(*kinds)} | {m: "M" for m in male_to_female(*kinds)}


def plurals() -> dict[str, str]:
    """Every plural form -> the sex it names."""
    return {fp: "F" for _, _, fp, _, _ in PERSON_NOUNS} | {mp: "M" for _, _, _, mp, _ in PERSON_NOUNS}
