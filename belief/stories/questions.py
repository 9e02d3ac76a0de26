"""Questions about generated stories, selected where Theory of Mind is needed and labelled by phenomenon.

Candidates (:func:`candidates`): for every object, "Where does A think B thinks ... the o is?" for every chain
of 1 to ``depth`` agents (no agent twice in a row), "Does A know where the o is?", and "Where is the o
really?" (a control). The gold answer is the checker's (:func:`belief.grading.questions.gold_answer`); only
questions whose gold is a place are asked (never "unknown"). A belief question is kept where ToM is needed:
the chain's belief differs from reality, or from the asked agent's own belief, or from the last agent's own
belief.

Selection (:func:`select`) balances each template's gold: the candidates are put in strata by which
shortcut would answer them right (reality, the asked agent's own belief, the last agent's own belief, the
object's first place, the kernel's public record, :class:`belief.grading.shortcuts.Panel`; for "knows", the
gold yes / no and whether the public record answers it right), and every stratum gets an equal share of the
template's budget (what a small stratum cannot fill goes to the others), at most ``per_story`` per story
and template, all in a seeded order; then the strongest shortcuts are held to half: "knows" has as many
yes as no, and a belief template no more questions the public record answers right than wrong.

The phenomenon (:func:`label`, the question's ``category``) is found by counterfactual: the story is
checked again without each kind of twist (secret observers, hidden listeners, the inattentive, closed
containers, quiet entries, messages); the first whose removal changes the gold names it
(:data:`PHENOMENA`); otherwise it is a plain false belief, a divergent higher-order belief, or a true
belief.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from belief.grading.questions import NO, NOWHERE, UNKNOWN, YES, Question, gold_answer
from belief.grading.selector import chains
from belief.grading.shortcuts import Panel
from belief.stories.generator import Story, StoryConfig, generate_story
from belief.stories.text import question_text
from belief.truth.checker import check
from belief.truth.ground import GroundTruth
from belief.truth.index import is_marker

ORDER_TEMPLATES = {0: "reality", 1: "first_order", 2: "second_order", 3: "third_order", 4: "fourth_order"}
KNOWS = "knows"
#: the phenomena, in the order a question is labelled (the first that applies), and what each means
PHENOMENA = {
    "secret_observation": "someone peeked: the gold changes without the secret observers",
    "overheard": "someone overheard a private message: the gold changes without the hidden listeners",
    "missed_change": "someone present was distracted: the gold changes without the inattentive",
    "closed_container": "a change inside a closed container: the gold changes if it were in the open",
    "quiet_entry": "someone came in quietly: the gold changes if the others had looked again",
    "message_borne": "the belief came from a message: the gold changes without the messages",
    "false_belief": "the chain believes an old place (it was away when the object moved)",
    "divergent_belief": "a higher-order belief that differs from the asked agent's own (or the last agent's)",
    "true_belief": "the agent knows where the object is (a 'knows' question answered yes)",
    "reality": "where the object really is (a control, no ToM)",
}
#: the twists removed to find a phenomenon: name -> how to strip them from an event (None: drop the event)
_COUNTERFACTUALS = (("secret_observation", "secret_observers"), ("overheard", "overheard_by"),
                    ("missed_change", "inattentive"), ("closed_container", "opaque"), ("quiet_entry", "quiet"),
                    ("message_borne", None))
#: questions per story and template in the budget; the reality control is asked of one story in four
RATES = {"reality": 0.25, "first_order": 2.0, "second_order": 2.0, "third_order": 2.0, "fourth_order": 2.0,
         KNOWS: 1.0}


@dataclass(frozen=True)
class Candidate:
    """A question about one story with its gold answer and the shortcuts' strata."""

    story: str
    question: Question
    gold: str
    stratum: tuple


def _place(v: object) -> TypeGuard[str]:
    return isinstance(v, str) and not is_marker(v)


def public_record_value(truth: GroundTruth, fluent: tuple, at=None, panel: Panel | None = None):
    """The fluent's value by the events every agent perceived: the kernel's public record
    (:meth:`belief.grading.shortcuts.Panel.public_record`, the public trace checked), None when it has none."""
    panel = panel if panel is not None else Panel(truth)
    v = panel.public_record(Question(id="", kind="value", chain=(), fluent=tuple(fluent),
                                     time=truth.end if at is None else at))
    return None if v in (UNKNOWN, NOWHERE) else v


def candidates(story: Story, truth: GroundTruth, depth: int) -> list[Candidate]:
    """Every question of the story that needs ToM (and the reality control), with its gold answer."""
    out = []
    agents = truth.agents
    panel = Panel(truth)
    for obj in story.objects:
        f = ("in", obj)
        real = truth.reality(f)
        first = truth.history(f)[0].value if truth.history(f) else None
        own = {a: truth.value((a,), f) for a in agents}
        public = public_record_value(truth, f, panel=panel)

        def q(kind, chain, template, f=f, obj=obj):
            return Question(id="", kind=kind, chain=chain, fluent=f, template=template,
                            text=question_text(kind, chain, obj))

        if _place(real):
            out.append(Candidate(story.id, q("value", (), "reality"), real, (real == first,)))
        for chain in chains(agents, depth):
            v = truth.value(chain, f)
            if not _place(v):
                continue
            if v == real and v == own[chain[0]] and v == own[chain[-1]]:
                continue  # no ToM needed: everyone concerned believes the truth
            out.append(Candidate(story.id, q("value", chain, ORDER_TEMPLATES[len(chain)]), v,
                                 (v == real, v == own[chain[0]], v == own[chain[-1]], v == first, v == public)))
        for a in agents:
            if not _place(own[a]):
                continue  # "does A know" of an agent that never saw the object is a trick question
            question = q("knows", (a,), KNOWS)
            gold = gold_answer(truth, question)
            public_says = YES if public == real else NO
            out.append(Candidate(story.id, question, gold, (gold, public_says == gold)))
    return out


def _stripped(events: list, field: str | None) -> list:
    if field is None:  # each message becomes a no-op of everyone it names (they stay named in the trace)
        out: list[dict[str, Any]] = []
        for e in events:
            if e["kind"] in ("tell", "announce"):
                names = [e["sender"], *e.get("recipients", ()), *e.get("overheard_by", ())]
                out.extend({"kind": "noop", "agent": a} for a in names)
            else:
                out.append(e)
        return out
    return [{k: v for k, v in e.items() if k != field} for e in events]


def label(story: Story, picked: list[Candidate], truth: GroundTruth) -> list[Candidate]:
    """The picked candidates of one story with their phenomenon as ``category`` (see the module docstring)."""
    if not picked:
        return []
    alternatives = []
    for phenomenon, field in _COUNTERFACTUALS:
        events = _stripped(story.events, field)
        if events != story.events:
            alternatives.append((phenomenon, check(story.trace(events))))
    out = []
    for c in picked:
        q = c.question
        name: str | None = None
        for phenomenon, other in alternatives:
            if _gold_or_none(other, q) != c.gold:
                name = phenomenon
                break
        if name is None:
            name = _plain(truth, q, c.gold)
        out.append(replace(c, question=replace(q, category=name)))
    return out


def _gold_or_none(truth: GroundTruth, q: Question):
    try:
        return gold_answer(truth, q)
    except Exception:  # noqa: BLE001 - a counterfactual story may not name the same agents
        return None


def _plain(truth: GroundTruth, q: Question, gold: str) -> str:
    if not q.chain:
        return "reality"
    if q.kind == KNOWS:
        return "true_belief" if gold == YES else "false_belief"
    own = truth.value((q.chain[0],), q.fluent)
    if len(q.chain) > 1 and gold != own:
        return "divergent_belief"
    if gold != truth.reality(q.fluent):
        return "false_belief"
    return "divergent_belief"


def select(pool: dict[str, list[Candidate]], n_stories: int, seed: int, per_story: int = 2) -> dict[str, list[Candidate]]:
    """Balanced questions per story id (see the module docstring); ``pool`` maps story ids to candidates."""
    by_template: dict = defaultdict(list)
    for sid in sorted(pool):
        for c in pool[sid]:
            by_template[c.question.template].append(c)
    chosen: dict = defaultdict(list)
    for template in sorted(by_template):
        rng = random.Random(f"belief.stories.select:{seed}:{template}")
        cands = by_template[template]
        rng.shuffle(cands)
        budget = round(n_stories * RATES.get(template, 1.0))
        cap = 1 if template in ("reality", KNOWS) else per_story
        strata: dict = defaultdict(list)
        for c in cands:
            strata[c.stratum].append(c)
        per_story_count: dict = defaultdict(int)
        remaining = {k: list(v) for k, v in sorted(strata.items())}
        left = budget
        while left > 0 and remaining:
            share = max(1, left // len(remaining))
            for key in list(remaining):
                took = 0
                queue = remaining[key]
                while queue and took < share and left > 0:
                    c = queue.pop(0)
                    if per_story_count[c.story] >= cap:
                        continue
                    per_story_count[c.story] += 1
                    chosen[c.story].append(c)
                    took += 1
                    left -= 1
                if not queue:
                    del remaining[key]
        _trim(chosen, template)
    return chosen


def _trim(chosen: dict, template: str) -> None:
    """Hold the strongest shortcuts to half of a template: "knows" gets exactly as many yes as no; a belief
    template no more questions the public record answers right than ones it answers wrong. The larger
    side gives back its latest picks."""
    picked = [c for sid in chosen for c in chosen[sid] if c.question.template == template]
    sides: dict[Any, list[Candidate]]
    keep: dict[Any, int]
    if template == KNOWS:
        sides = {v: [c for c in picked if c.gold == v] for v in (YES, NO)}
        keep = {v: min(len(x) for x in sides.values()) for v in sides}
    elif template != "reality":
        sides = {v: [c for c in picked if c.stratum[4] == v] for v in (True, False)}
        keep = {True: len(sides[False]), False: len(sides[False])}
    else:
        return
    drop = {id(c) for v, side in sides.items() for c in side[keep[v]:]}
    for sid in list(chosen):
        chosen[sid] = [c for c in chosen[sid] if id(c) not in drop]


def story_questions(story: Story, picked: list[Candidate], truth: GroundTruth) -> list[Candidate]:
    """The story's picked questions, labelled and numbered in a fixed order (by template, chain, object)."""
    order = {t: i for i, t in enumerate(list(ORDER_TEMPLATES.values()) + [KNOWS])}
    picked = sorted(picked, key=lambda c: (order[str(c.question.template)], c.question.chain, c.question.fluent))
    labelled = label(story, picked, truth)
    return [replace(c, question=replace(c.question, id=f"q{k + 1}")) for k, c in enumerate(labelled)]


__all__ = ["Candidate", "candidates", "chains", "label", "select", "story_questions", "PHENOMENA",
           "ORDER_TEMPLATES", "KNOWS", "RATES", "YES", "NO", "public_record_value"]


@dataclass
class StorySet:
    """A generated set: the stories and their questions (labelled), with counts for the manifest."""

    stories: list
    questions: dict  # story id -> [Candidate]

    def counts(self) -> dict:
        """Questions per phenomenon, per order, per template, and per phenomenon and order."""
        by: dict = {"phenomenon": defaultdict(int), "order": defaultdict(int), "template": defaultdict(int),
                    "phenomenon_order": defaultdict(int), "gold_yes_no": defaultdict(int)}
        for cands in self.questions.values():
            for c in cands:
                q = c.question
                by["phenomenon"][q.category] += 1
                by["order"][str(q.order)] += 1
                by["template"][q.template] += 1
                by["phenomenon_order"][f"{q.category}/{q.order}"] += 1
                if q.kind == KNOWS:
                    by["gold_yes_no"][c.gold] += 1
        return {k: dict(sorted(v.items())) for k, v in by.items()}

    @property
    def n_questions(self) -> int:
        return sum(len(v) for v in self.questions.values())


def generate_set(n: int, seed: int, config=None, per_story: int = 2, progress=None) -> StorySet:
    """``n`` stories of the set seeded ``seed`` and their balanced, labelled questions (deterministic).
    ``progress(k)`` is called after each story generated (for a progress bar)."""
    config = config or StoryConfig()
    stories, truths, pool = [], {}, {}
    for i in range(n):
        story = generate_story(seed, i, config)
        truth = check(story.trace())
        stories.append(story)
        truths[story.id] = truth
        pool[story.id] = candidates(story, truth, config.depth)
        if progress is not None:
            progress(i + 1)
    chosen = select(pool, n, seed, per_story)
    questions = {s.id: story_questions(s, chosen.get(s.id, []), truths[s.id]) for s in stories}
    return StorySet(stories, questions)


__all__ += ["StorySet", "generate_set"]
