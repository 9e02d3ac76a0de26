"""Read free-text answers to ToM questions: yes/no verdicts and named places.

The reader works on clauses, not on whole sentences, so it generalises beyond the phrasings it was tested
on (``tests/grading/test_answers.py`` builds several hundred of them from subjects x verbs x negations x
hedges, plus idioms):

* **Negation scope.** A yes/no clause is read at its first *cognitive predicate* (know, aware, see, told,
  learn, notice, ...; or a negative one: unaware, ignorant, in the dark, no idea). Its polarity flips once
  per negator before it ("It is *unlikely* that Bravo is aware", "It's *impossible* for Bravo to know",
  "I *don't* think he knows", "*Nobody* told him") and per negative object right after it ("knows
  *nothing* about it"). Negations inside the known content ("knows that Alpha did *not* ...") do not count.
  Doubt is a negator, so "no doubt" and "without a doubt" read as yes.
* **Interjections.** A clause made only of answer words is read by the same parity: "Definitely not",
  "Of course not", "Indeed not", "Probably not", "Unlikely" (no); "Sure", "I guess so", "No doubt about
  it" (yes). Elliptic clauses ("he does", "she isn't") too.
* **Hedges and abstentions.** 50/50 hedges ("maybe", "might", "possibly", "not sure") and abstentions
  ("I don't know", "hard to say") are unreadable (``None``), never a guess. Asked about oneself ("Do you
  know F?"), "I don't know" / "I have no idea" mean no.
* **Where the verdict is.** An explicit "the answer is no" wins (the last one); otherwise a leading answer
  ("No, ...") is the verdict unless a later conclusion ("So ...", "..., therefore he knows") overrides it;
  a paragraph that opens with reasoning is read at its last sentence with a verdict. Reasons ("because
  ...", "since ...") and concessions ("although ...", "... but") are not the verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

YES, NO, HEDGE = "yes", "no", "hedge"

_CONTRACTIONS = [
    (r"\bwon'?t\b", "will not"), (r"\bcan'?t\b", "can not"), (r"\bcannot\b", "can not"), (r"\bshan'?t\b", "shall not"),
    (r"\bain'?t\b", "is not"),
    (r"\b(do|does|did|is|are|was|were|has|have|had|could|would|should|must|need|might|dare)n'?t\b", r"\1 not"),
    (r"\b(it|that|there|he|she|what|who|this|here)'s\b", r"\1 is"), (r"'m\b", " am"), (r"'re\b", " are"),
    (r"'d\b", " would"), (r"'ve\b", " have"), (r"'ll\b", " will"), (r"'s\b", ""),
]
_CONTRACTION_RES = [(re.compile(p), r) for p, r in _CONTRACTIONS]

# verbs and nouns of knowing, perceiving, being informed (stems matched as whole words)
_COGNITIVE = set("""know knows knew known knowing knowledge aware awareness see sees saw seen seeing notice notices
noticed noticing observe observes observed observing witness witnesses witnessed watch watches watched learn learns
learned learnt discover discovers discovered realize realizes realized realise realises realised understand
understands understood remember remembers remembered recall recalls recalled tell tells told inform informs informed
hear hears heard idea clue privy spotted spot spots figured figure find finds found""".split())
# predicates that are negative in themselves
_NEG_PREDICATES = set("unaware ignorant oblivious clueless unknown uninformed unacquainted unfamiliar missed misses "
                      "miss".split())
_NEGATORS = set("""not never no nobody nothing none neither nor without hardly barely scarcely unlikely improbable
impossible doubt doubts doubted doubtful fail fails failed lack lacks lacked lacking unable incapable false incorrect
nope nah negative""".split())
_OBJECT_NEGATORS = {"nothing", "none", "no", "neither", "nobody"}
_YES_WORDS = set("""yes yeah yep yup yea aye ok okay sure surely certainly definitely absolutely indeed correct right
true exactly affirmative totally undoubtedly probably likely presumably clearly obviously evidently naturally
positively course""".split())
_NO_PARTICLES = {"no", "nope", "nah"}
_YES_PARTICLES = {"yes", "yeah", "yep", "yup", "yea", "aye"}
# words allowed in an interjection ("Of course not", "I guess so", "No doubt about it", "Not that I know of")
_FILLER = set("""of i we would say think believe guess suppose reckon expect imagine hope fear afraid am do does did
is be was it that this so very highly most more rather pretty fairly quite really the a an at all about for thing
means by in slightest bit one least case well oh ah uh um hmm seems seem appears looks like apparently seemingly
either to my as far can tell question way chance chances and there much sense any assume presume
bet gather wager trust""".split())
_HEDGES = set("maybe perhaps possibly possible might may unsure uncertain unclear conceivably".split())
_CERTAINTY = {"sure", "certain", "confident", "positive"}
_AUX = set("do does did is are was were has have had can could will would should must shall am".split())
_CONCLUSION = re.compile(r"^(?:so|therefore|thus|hence|consequently|accordingly|in conclusion|overall|in summary|"
                         r"in short|to sum up|to conclude|that means|which means|meaning|ultimately|in the end|"
                         r"all in all|then)\b[\s,:]*")
# "Based on the story, ...": where the answer comes from, not the answer
_PREAMBLE = re.compile(r"^(?:based on|according to|given|from|in|judging by) (?:the|this) (?:story|text|passage|"
                       r"narrative|information|context|events)\s*,?\s*")
_LABEL = re.compile(r"^(?:final answer|my answer|short answer|answer|response|verdict|a)\s*[:\-]\s*")
_MARKER = re.compile(r"\b(?:answer|verdict|conclusion)\s*(?:(?:is|would be|will be)\s*[:\-=]?|[:\-=])\s*(?:an?\s+)?"
                     r"(?:clear\s+|definite\s+|firm\s+|simple\s+|resounding\s+|definitely\s+)?(yes|no|true|false)\b")
# who knows / abstentions
_ABSTAIN = re.compile(r"\b(?:not sure|unsure|uncertain|unclear|hard to (?:say|tell)|difficult to (?:say|tell)|"
                      r"impossible to (?:say|tell|determine)|can not (?:say|tell|determine|be sure)|"
                      r"could not (?:say|tell)|no way to (?:know|tell)|it depends|depends on|who knows|"
                      r"not enough information|insufficient information|cannot be determined|can not be determined|"
                      r"dunno|toss[- ]up|either way|can not decide|could go either way)\b")
_SELF_IGNORANCE = re.compile(r"^(?:(?:well|honestly|frankly|sorry)\s+)?(?:(?:i|we)\s+(?:(?:really|honestly|just)\s+)?"
                             r"(?:do not know|did not know|have no idea|have no clue|am not aware|am unaware|"
                             r"have not (?:seen|been told|learned))|no idea|no clue|not a clue)\b(?P<rest>.*)$")
_WHETHER = re.compile(r"^\s*(?:whether|if|for sure|for certain|exactly)?\s*$|^\s*(?:whether|if|for sure|for certain)\b")
_REASON = {"because", "since", "cause", "given", "due"}
_CONCESSIVE = {"although", "though", "while", "whereas", "even"}
_CONTRAST = {"but", "however", "yet", "still", "nevertheless", "nonetheless"}
_CONSEQUENCE = {"so", "therefore", "thus", "hence", "consequently"}
_SPLIT = re.compile(r"\s*(?:,\s*as\b|\bbecause\b|\bsince\b|\bgiven that\b|\bdue to\b|\balthough\b|\beven though\b|"
                    r"\bthough\b|\bwhereas\b|(?:^|,)\s*while\b|\bbut\b|\bhowever\b|(?:,\s*|\band\s+)yet\b|\bso\b(?!\s*[.!]*$)|"
                    r"\btherefore\b|\bthus\b|\bhence\b|\bconsequently\b|\bwhich means\b|\bthat means\b|\bmeaning\b)"
                    r"\s*,?\s*")
_COMPLEMENTIZERS = {"that", "whether", "if", "what", "where", "which", "who", "how", "when", "why"}


def normalize(text) -> str:
    """Lower case, straight quotes, no markdown, contractions expanded ("couldn't" -> "could not")."""
    t = str(text).lower().replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    t = re.sub(r"[*_#>\"\[\]{}()]", " ", t)
    t = re.sub(r"\b(does|do|did|is|are|was|were|has|have|could|would|should|can)nt\b", r"\1n't", t)
    for rx, rep in _CONTRACTION_RES:
        t = rx.sub(rep, t)
    return re.sub(r"[ \t]+", " ", t).strip()


def _words(s: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", s)


def sentences(t: str) -> list[str]:
    """Sentences of a normalised text; questions ("Does Bravo know?") are dropped."""
    out = []
    for m in re.finditer(r"[^.!?;\n]+[.!?;\n]*", t):
        s = m.group(0).strip()
        if s and not s.endswith("?") and _words(s):
            out.append(s.rstrip(".!;\n ").strip())
    return out


def _parity(negs: int) -> str:
    return YES if negs % 2 == 0 else NO


def _count_negators(words: list[str]) -> int:
    n = 0
    for i, w in enumerate(words):
        if w in _NEGATORS and not (w == "nor" and "neither" in words[:i]):
            n += 1
        elif w == "little" and i + 1 < len(words) and words[i + 1] == "doubt":
            n += 1
        elif w == "yet" and i > 0 and words[i - 1] in ("has", "have", "is", "are") and i + 1 < len(words) \
                and words[i + 1] == "to":
            n += 1  # "has yet to learn"
        elif w == "far" and i + 1 < len(words) and words[i + 1] == "from":
            n += 1
    return n


def _has_hedge(words: list[str]) -> bool:
    """A 50/50 hedge not itself negated ("not possible" is a no, "could not possibly" too)."""
    for i, w in enumerate(words):
        hedge = w in _HEDGES or (w == "could" and (i + 1 >= len(words) or words[i + 1] != "not"))
        if w in _CERTAINTY and i > 0 and words[i - 1] == "not":
            return True
        if hedge and not (i > 0 and words[i - 1] in _NEGATORS) and not (i > 1 and words[i - 2] in _NEGATORS):
            return True
    return False


def _interjection(words: list[str]) -> Optional[str]:
    """'Definitely not', 'I guess so', 'No doubt about it': only answer words, read by negation parity."""
    if not words or any(w not in _FILLER and w not in _YES_WORDS and w not in _NEGATORS and w not in _HEDGES
                        and w not in _CERTAINTY and w != "little" for w in words):
        return None
    if not any(w in _YES_WORDS or w in _NEGATORS or w in _HEDGES or w in ("so", "sure", "certain") for w in words):
        return None
    if _YES_PARTICLES & set(words) and _NO_PARTICLES & set(words):
        return HEDGE  # "yes and no"
    if _has_hedge(words):
        return HEDGE
    return _parity(_count_negators(words))


def _elliptic(words: list[str]) -> Optional[str]:
    """'He does', 'Bravo doesn't', 'she is not either': a short clause ending in an auxiliary."""
    w = [x for x in words if x not in ("too", "either", "also", "indeed", "certainly", "definitely", "really")]
    while w and w[0] in _YES_PARTICLES | _NO_PARTICLES | {"well", "oh"}:
        w = w[1:]
    if not 2 <= len(w) <= 8:
        return None
    tail = w[-2:] if w[-1] == "not" else w[-1:]
    if tail[0] not in _AUX or w[0] in _AUX:
        return None
    if _has_hedge(w):
        return HEDGE
    return _parity(_count_negators(w))


_NEG_IDIOMS = (("in", "the", "dark"), ("none", "the", "wiser"), ("out", "of", "the", "loop"))


def _neg_idiom_at(words: list[str], i: int) -> bool:
    return any(tuple(words[i:i + len(idiom)]) == idiom for idiom in _NEG_IDIOMS)


def _predicate_clause(tokens: list[str]) -> Optional[str]:
    """Polarity at the first cognitive predicate (negators before it, negative objects right after it, up to
    a comma). ``tokens`` are words and commas."""
    words = [w for w in tokens if w != ","]
    positions = [i for i, w in enumerate(words) if w in _COGNITIVE or w in _NEG_PREDICATES or _neg_idiom_at(words, i)]
    if not positions:
        return None
    positions.sort()
    i = positions[0]
    # "I know (that) Bravo saw it": the speaker's own frame is transparent; read the inner predicate
    if words[i] in ("know", "knew") and i > 0 and words[i - 1] in ("i", "we") and len(positions) > 1:
        i = positions[1]
    negs = _count_negators(words[:i])
    w = words[i]
    if w in _NEG_PREDICATES or _neg_idiom_at(words, i):
        negs += 1
    k = [j for j, x in enumerate(tokens) if x != ","][i]  # the predicate's position among the tokens
    for x in tokens[k + 1:k + 4]:
        if x in _COMPLEMENTIZERS or x == ",":
            break
        if x in _OBJECT_NEGATORS:
            negs += 1
            break
    if _has_hedge(words[:i + 1]):
        return HEDGE
    return _parity(negs)


def _clause(part: str) -> Optional[str]:
    tokens = re.findall(r"[a-z0-9]+|,", part)
    words = [w for w in tokens if w != ","]
    if not words:
        return None
    return _interjection(words) or _predicate_clause(tokens) or _elliptic(words)


def _parts(sentence: str) -> list[tuple[str, str]]:
    """(connective, text) parts of a sentence, split at reasons, concessions, contrasts and consequences."""
    out, last, conn = [], 0, ""
    for m in _SPLIT.finditer(sentence):
        out.append((conn, sentence[last:m.start()]))
        conn = _words(m.group(0))[0] if _words(m.group(0)) else ""
        last = m.end()
    out.append((conn, sentence[last:]))
    fixed: list[tuple[str, str]] = []
    for conn, text in out:
        opening = bool(fixed) and not fixed[-1][1].strip(" ,")
        if conn in _REASON | _CONCESSIVE | {"as"} and opening and "," in text:
            # "Since he left, he doesn't know": a subordinate that opens the sentence ends at the comma
            sub, main = text.split(",", 1)
            fixed.append((conn, sub))
            fixed.append(("", main))
        else:
            fixed.append((conn, text))
    return [(c, t.strip(" ,:-")) for c, t in fixed]


def _sentence(sentence: str, about_self: bool) -> tuple[Optional[str], bool]:
    """(verdict, conclusive) of one sentence: verdict yes/no/hedge or None (nothing read)."""
    s = _PREAMBLE.sub("", _LABEL.sub("", sentence.strip()))
    conclusive = bool(_CONCLUSION.match(s))
    s = _CONCLUSION.sub("", s)
    segments = re.split(r"\s*[,:\u2014\u2013]\s*|\s+-\s+", s)
    head = _words(segments[0])
    if _YES_PARTICLES & set(head) and _NO_PARTICLES & set(head) and len(head) <= 4:
        return HEDGE, conclusive  # "yes and no"
    if _ABSTAIN.search(segments[0]):
        return HEDGE, conclusive
    lead = _interjection(head)
    if lead is None and head and head[0] in _YES_PARTICLES | _NO_PARTICLES and not (
            len(head) > 1 and head[1] in ("doubt", "question", "wonder", "problem", "worries", "one", "body", "idea", "clue")):
        lead = YES if head[0] in _YES_PARTICLES else NO
    if lead is None and len(segments) > 1:
        lead = _elliptic(head)  # "He wouldn't, he was sleeping": an elliptic answer, then its reason
        if lead is not None:
            return lead, conclusive
    strong = lead is not None and bool(set(head) & (_YES_PARTICLES | _NO_PARTICLES | _NEGATORS | {"so"}))
    if strong or (lead is not None and len(segments) == 1):
        return lead, conclusive
    ignorance = _SELF_IGNORANCE.match(s)
    if ignorance and _WHETHER.match(ignorance.group("rest")):
        return (NO if about_self else HEDGE), conclusive
    if _ABSTAIN.search(s):
        return HEDGE, conclusive
    parts = _parts(s)
    main = [(c, t) for c, t in parts if c not in _REASON | _CONCESSIVE | {"as"}]
    conclusive = conclusive or any(c in _CONSEQUENCE for c, _ in parts[1:])
    for _, text in reversed(main or parts):
        v = _clause(text)
        if v is not None:
            return v, conclusive
    return lead, conclusive  # an adverb alone ("Clearly, ..."; "Of course, ...") defers to the clause


def read_verdict(text, *, about_self: bool = False) -> Optional[str]:
    """'yes', 'no', 'hedge' (hedged or abstaining) or None (no verdict found) for a free-text answer."""
    if isinstance(text, bool):
        return YES if text else NO
    if text is None:
        return None
    t = normalize(text)
    if not t:
        return None
    markers = _MARKER.findall(t)
    if markers:
        return YES if markers[-1] in ("yes", "true") else NO
    found = []
    for i, s in enumerate(sentences(t)):
        v, conclusive = _sentence(s, about_self)
        if v is not None:
            found.append((i, v, conclusive))
    if not found:
        return None
    later = [v for i, v, c in found if i > 0 and c and v != HEDGE]
    if later:
        return later[-1]
    if found[0][0] == 0:
        return found[0][1]
    return found[-1][1]


def read_yes_no(text, *, about_self: bool = False) -> Optional[bool]:
    """True (yes), False (no) or None (unreadable: hedged, abstaining, contradictory or no verdict)."""
    v = read_verdict(text, about_self=about_self)
    return True if v == YES else False if v == NO else None


# --- places -----------------------------------------------------------------------------------------
UNKNOWN, NOWHERE = "unknown", "nowhere"
_DOES_NOT_KNOW_WHERE = re.compile(r"\b(?:does not know|do not know|did not know|has no idea|have no idea|no clue|"
                                  r"unaware of|can not know|could not know|would not know|is unsure|is not sure|"
                                  r"not know)\b.*\b(?:where|location|whereabouts)\b|\bno (?:idea|belief|clue)\b|"
                                  r"\bhas not seen it\b(?!\s+\w)|\bnever saw it\b(?!\s+\w)|\bunknown\b")
_NOWHERE = re.compile(r"\bnowhere\b|\bnot anywhere\b|\bgone\b|\bno longer (?:exists|there)\b")
# "The answer is the jar", "Final answer: jar": what follows is the answer, whatever came before
_ANSWER_IS = re.compile(r"\banswer\s*(?:(?:is|would be|will be)\s*[:\-=]?|[:\-=])\s*")
# the frame of a clause: whose belief it states (a verb of believing, looking, knowing), or reality
_BELIEF_FRAME = set("""think thinks thought thinking believe believes believed belief beliefs assume assumes assumed
expect expects expected suppose supposes supposed imagine imagines imagined look looks looking search searches
searching check checks checking mind impression convinced mistakenly know knows knew remember remembers remembered
recall recalls saw see sees seen according say says said""".split())
_REALITY_FRAME = set("really actually actual reality fact truth truly truthfully currently real true now".split())
_EVENT_FRAME = set("""moved move moves put puts placed transferred took take takes carried hid hidden dropped stored
relocated went removed shifted""".split())
# negators of a place mention: each before it in its clause flips it ("does not think it is in the box"
# negates the box; "never saw it leave the jar" does not negate the jar)
_PLACE_NEGATORS = set("not never no nobody none neither nor without rather instead except unaware".split())
_DEPARTURE = re.compile(r"(?:\bfrom|\bleft|\bleave|\bleaves|\bleaving|\bout of|\bother than)\s+(?:the\s+|a\s+|an\s+)?$")
_PLACE_HEDGES = _HEDGES | {"either", "unsure", "uncertain"}
_SEGMENT = re.compile(r"\s*(?:[,;:\u2014\u2013]|\s-\s|\band\s+(?=(?:he|she|they|it|so|then|still|therefore|thinks|"
                      r"believes|would|will)\b))\s*")
_EXCEPT = re.compile(r"\b(anywhere|anything|everywhere|everything|all|nowhere|nothing) but\b")


def _spoken(name: str) -> str:
    return " ".join(_words(normalize(name.replace("_", " ").replace("-", " "))))


def _mentions(text: str, names: dict) -> list[tuple[int, str, bool]]:
    """(position, candidate, negated) of every mention in one clause, longest names first, no overlaps. A
    mention is negated by an odd number of negators before it in the clause, a departure ("from the box",
    "out of the box") counting as one."""
    taken: list[tuple[int, int]] = []
    out: list[tuple[int, str, bool]] = []
    for spoken in sorted(names, key=len, reverse=True):
        for m in re.finditer(rf"\b{re.escape(spoken)}\b", text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            before = _words(text[:m.start()])
            while before and before[0] in _YES_PARTICLES | _NO_PARTICLES:
                before = before[1:]  # "No it's in the jar": the answer particle negates nothing here
            negs = sum(1 for j, w in enumerate(before) if w in _PLACE_NEGATORS
                       and not (w == "nor" and "neither" in before[:j]))
            negs += bool(_DEPARTURE.search(text[max(0, m.start() - 30):m.start()]))
            out.append((m.start(), names[spoken], negs % 2 == 1))
    return sorted(out)


@dataclass
class _Clause:
    sentence: int
    frame: str                # belief | reality | event | neutral
    holders: tuple            # the question's chain names the clause mentions, in order
    places: list              # candidates named and not negated, in order
    hedged: bool


def _frame(words: set, inherited: Optional[str]) -> str:
    if words & _BELIEF_FRAME:
        return "belief"
    if words & _REALITY_FRAME:
        return "reality"
    if words & _EVENT_FRAME:
        return "event"
    return inherited or "neutral"


def _holders(text: str, chain: tuple) -> tuple:
    found = sorted((m.start(), name) for name in set(chain) for m in re.finditer(rf"\b{re.escape(name)}\b", text))
    out: list = []
    for _, name in found:
        if not out or out[-1] != name:
            out.append(name)
    return tuple(out)


def _place_clauses(i: int, main: list[str], names: dict, chain: tuple) -> list[_Clause]:
    """The clauses of one sentence's main parts (reasons and concessions left out): each part split at
    commas, dashes, colons and "and he ..."; a clause without a frame word takes its part's frame so far."""
    out = []
    for part in main:
        holders = _holders(part, chain)
        words = _words(part)
        hedged = (bool(set(words) & _PLACE_HEDGES) or bool(_ABSTAIN.search(part)) or _has_hedge(words)
                  or (words[:1] == ["or"]))
        frame = None
        for seg in _SEGMENT.split(part):
            frame = _frame(set(_words(seg)), frame)
            mentions = _mentions(seg, names)
            places = [c for _, c, negated in mentions if not negated]
            if len(places) > 1 and any(re.search(r"\bor\b", seg[a:b]) for (a, _, n1), (b, _, n2)
                                      in zip(mentions, mentions[1:]) if not n1 and not n2):
                hedged = True  # "the jar or the lunchbox"
            out.append(_Clause(i, frame, holders, places, hedged))
    return out


def _prefer(clauses: list[_Clause], chain: Optional[tuple[str, ...]]) -> list[_Clause]:
    """Keep the clauses that answer the question: for a belief (a non-empty chain), not the ones stating
    reality or narrating a move when others name a place, and only the ones whose holders are exactly the
    chain when some are; for reality (an empty chain), not the ones stating a belief when others name a place."""
    named = [c for c in clauses if c.places]
    if chain is None or not named:
        return clauses
    if not chain:
        if any(c.frame != "belief" for c in named):
            return [c for c in clauses if c.frame != "belief"]
        return clauses
    if any(c.frame in ("belief", "neutral") for c in named):
        clauses = [c for c in clauses if c.frame not in ("reality", "event")]
    if any(c.frame == "belief" and c.places and c.holders == tuple(chain) for c in clauses):
        clauses = [c for c in clauses if c.frame != "belief" or not c.places or c.holders == tuple(chain)]
    # within a sentence, a clause stating the belief wins over a bare statement of where it is
    believed = {c.sentence for c in clauses if c.frame == "belief" and c.places}
    return [c for c in clauses if not (c.sentence in believed and c.frame == "neutral" and c.places)]


def _drop_asides(text: str) -> str:
    """'The jar (where he last saw it), not the box': parenthesised asides are explanations, not answers."""
    stripped = re.sub(r"\([^()]*\)", " ", text)
    return stripped if _words(stripped.lower()) else text


def read_place(text: object, candidates: Iterable[str], *, about_self: bool = False,
               chain: Optional[Sequence[str]] = None) -> Optional[str]:
    """The candidate place a free-text answer names, 'unknown' ("Bravo doesn't know where it is"),
    'nowhere', or None (unreadable: no candidate, several conflicting ones, a hedge or an abstention).

    ``chain`` is the question's chain when known: a belief (``("Ben",)``: "where does Ben think it is?")
    reads "It's really in the box, but Ben believes it's in the jar" as the jar, reality (``()``) as the box.
    Places are read clause by clause: negated ones are skipped ("Ben doesn't think it's in the box; he thinks
    it's in the jar"); a hedged answer ("Maybe the jar", "the jar or the box") is unreadable, never a guess;
    "the answer is ..." wins over everything said before or after it."""
    if text is None:
        return None
    t = _EXCEPT.sub(r"\1 except", normalize(_drop_asides(str(text))))
    names = {_spoken(c): c for c in candidates if c and _spoken(c)}
    chain_names = None if chain is None else tuple(_spoken(a) for a in chain)
    clauses: list[_Clause] = []
    marked: list = []
    other: list[tuple[int, Optional[str], bool]] = []  # sentences without a place: ignorance, abstention
    conclusive_at: set = set()
    for i, s in enumerate(sentences(t)):
        answer_is = _ANSWER_IS.search(s)
        if answer_is:
            picks = [c for _, c, negated in _mentions(s[answer_is.end():], names) if not negated]
            if picks:
                marked.append(picks[0])
                continue
        s = _PREAMBLE.sub("", _LABEL.sub("", s))
        conclusive = bool(_CONCLUSION.match(s))
        parts = _parts(_CONCLUSION.sub("", s))
        if conclusive or any(c in _CONSEQUENCE for c, _ in parts[1:]):
            conclusive_at.add(i)
        main = [p for c, p in parts if c not in _REASON | _CONCESSIVE | {"as"}]
        found = _place_clauses(i, main, names, chain_names or ())
        if any(c.places for c in found) or any(c.hedged for c in found):
            clauses.extend(found)
            continue
        text_main = " ".join(main)
        ignorance = _SELF_IGNORANCE.match(s)
        if ignorance and _WHETHER.match(ignorance.group("rest") or ""):
            other.append((i, UNKNOWN if about_self else None, conclusive))
        elif ignorance or _DOES_NOT_KNOW_WHERE.search(text_main):
            other.append((i, UNKNOWN if (about_self or not ignorance) else None, conclusive))
        elif _NOWHERE.search(text_main):
            other.append((i, NOWHERE, conclusive))
        elif _ABSTAIN.search(text_main):
            other.append((i, None, conclusive))
    if marked:
        return marked[-1]
    kept = _prefer(clauses, chain_names)
    readings = list(other)
    for i in sorted({c.sentence for c in kept}):
        mine = [c for c in kept if c.sentence == i]
        if any(c.hedged for c in mine):
            readings.append((i, None, i in conclusive_at))
            continue
        places = [p for c in mine for p in c.places]
        if places:
            readings.append((i, places[0], i in conclusive_at))
    if not readings:
        return None
    readings.sort(key=lambda f: f[0])
    later = [v for i, v, c in readings if i > 0 and c and v is not None]
    if later:
        return later[-1]
    if readings[0][0] == 0:
        return readings[0][1]
    return readings[-1][1]


__all__ = ["read_yes_no", "read_verdict", "read_place", "normalize", "sentences", "YES", "NO", "HEDGE",
           "UNKNOWN", "NOWHERE"]
