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
from typing import Iterable, Optional

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
_LABEL = re.compile(r"^(?:final answer|my answer|short answer|answer|response|verdict|a)\s*[:\-]\s*")
_MARKER = re.compile(r"\b(?:answer|verdict|conclusion)\s*(?:is|would be|will be|:|-|=)\s*(?:an?\s+)?(?:clear\s+|"
                     r"definite\s+|firm\s+|simple\s+|resounding\s+)?(yes|no|true|false)\b")
# who knows / abstentions
_ABSTAIN = re.compile(r"\b(?:not sure|unsure|uncertain|unclear|hard to (?:say|tell)|difficult to (?:say|tell)|"
                      r"impossible to (?:say|tell|determine)|can not (?:say|tell|determine|be sure)|"
                      r"could not (?:say|tell)|no way to (?:know|tell)|it depends|depends on|who knows|"
                      r"not enough information|insufficient information|cannot be determined|can not be determined|"
                      r"dunno)\b")
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
    s = _LABEL.sub("", sentence.strip())
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
_PLACE_NEGATED = re.compile(r"(?:\bnot|\bno longer|\brather than|\binstead of|\bfrom|\bleft|\bout of|\bnever|"
                            r"\bnor|\bexcept)\s+(?:(?:in|on|at|inside|within|into|to)\s+)?(?:the\s+|a\s+|an\s+)?$")
_DOES_NOT_KNOW_WHERE = re.compile(r"\b(?:does not know|do not know|did not know|has no idea|have no idea|no clue|"
                                  r"unaware of|can not know|could not know|would not know|is unsure|is not sure|"
                                  r"not know)\b.*\b(?:where|location|whereabouts)\b|\bno (?:idea|belief|clue)\b|"
                                  r"\bhas not seen it\b|\bnever saw it\b|\bunknown\b")
_NOWHERE = re.compile(r"\bnowhere\b|\bnot anywhere\b|\bgone\b|\bno longer (?:exists|there)\b")


def _spoken(name: str) -> str:
    return " ".join(_words(normalize(name.replace("_", " ").replace("-", " "))))


def _mentions(sentence: str, names: dict) -> list[tuple[int, str]]:
    """(position, candidate) of every non-negated mention, longest names first, no overlaps."""
    taken: list[tuple[int, int]] = []
    out: list[tuple[int, str]] = []
    for spoken in sorted(names, key=len, reverse=True):
        for m in re.finditer(rf"\b{re.escape(spoken)}\b", sentence):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            if not _PLACE_NEGATED.search(sentence[max(0, m.start() - 30):m.start()]):
                out.append((m.start(), names[spoken]))
    return sorted(out)


def read_place(text, candidates: Iterable[str], *, about_self: bool = False) -> Optional[str]:
    """The candidate place a free-text answer names, 'unknown' ("Bravo doesn't know where it is"),
    'nowhere', or None (unreadable: no candidate, several conflicting ones, or an abstention)."""
    if text is None:
        return None
    t = normalize(text)
    names = {_spoken(c): c for c in candidates if c and _spoken(c)}
    found: list[tuple[int, str | None, bool]] = []
    for i, s in enumerate(sentences(t)):
        s = _LABEL.sub("", s)
        conclusive = bool(_CONCLUSION.match(s))
        parts = _parts(_CONCLUSION.sub("", s))
        conclusive = conclusive or any(c in _CONSEQUENCE for c, _ in parts[1:])
        main = " ".join(p for c, p in parts if c not in _REASON | _CONCESSIVE | {"as"})
        picks = {c for _, c in _mentions(main, names)}
        ignorance = _SELF_IGNORANCE.match(s)
        if len(picks) == 1:
            found.append((i, picks.pop(), conclusive))
        elif len(picks) > 1:
            first = _mentions(main, names)[0][1]
            found.append((i, first, conclusive))
        elif ignorance and _WHETHER.match(ignorance.group("rest") or ""):
            found.append((i, UNKNOWN if about_self else None, conclusive))
        elif ignorance or _DOES_NOT_KNOW_WHERE.search(main):
            found.append((i, UNKNOWN if (about_self or not ignorance) else None, conclusive))
        elif _NOWHERE.search(main):
            found.append((i, NOWHERE, conclusive))
        elif _ABSTAIN.search(main):
            found.append((i, None, conclusive))
    if not found:
        return None
    later = [v for i, v, c in found if i > 0 and c and v is not None]
    if later:
        return later[-1]
    if found[0][0] == 0:
        return found[0][1]
    return found[-1][1]


__all__ = ["read_yes_no", "read_verdict", "read_place", "normalize", "sentences", "YES", "NO", "HEDGE",
           "UNKNOWN", "NOWHERE"]
