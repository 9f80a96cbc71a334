"""The noun phrases of a request: where free-text argument values come from.

A ``genre`` or a ``dish_name`` is not a number, a date or a place: it is a few words of
the request ("*rock* concerts", "a recipe for *vegan chocolate cake*"). A model picks them
by grammar: it skips the verbs ("find", "calculate"), the small words ("the", "of"), the
framing ("the top three", "information about") and the words the tool already says ("the
*concerts*" for a concert finder), and keeps the noun phrases that carry new information.

This module does that in one pass over the words :func:`~.reading.read` already found:

* words are classed as function words (determiners, prepositions, pronouns...), verbs,
  framing words ("latest", "nearest", "information"), the tool's own words, or content;
* a *phrase* is a run of content words; it remembers the preposition before it ("*about*
  fraud"), the word that preposition hangs from ("the boiling *point of* water") and the
  tool word right after it ("gas-powered *vehicle*"), so :mod:`.arguments` can tell a
  modifier of a parameter's noun from the object of the tool's noun;
* "X of Y" is also offered whole ("theory of relativity") when X is not a tool word.

Deliberate shortcut: word lists instead of a part-of-speech tagger (no model weights).
Taught in lesson 02 (why a parameter's name and description matter).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import language as lang
from .reading import Mention, Reading

PREPOSITIONS = frozenset("""of in on at for from to with by about into onto under over between near within during
    after before per via without against among around across through like as than toward towards regarding
    concerning using since until till upon behind beside besides beyond inside outside along amid versus vs""".split())

FUNCTION_WORDS = PREPOSITIONS | frozenset("""a an the this that these those my our your their his her its some any
    all each every both either neither no not and or but nor so if then than whether which who whom whose what
    when where why how i me we us you he she it they them myself yourself is are was were be been being am do
    does did doing done have has had having can could would should will shall may might must please kindly
    what's whats who's it's its that's there's here's let's lets i'm i'd i'll i've you're we're they're don't
    doesn't isn't aren't won't can't there here also just only very really too much many more most less least
    such same other another own again ever even still yet already now currently right today tonight
    out up off s t""".split())

#: Verbs a request uses to ask (and their forms): never part of a value.
VERBS = frozenset("""find finds finding found get gets getting got give gives giving gave show shows showing tell tells
    telling told list lists listing fetch fetches fetching retrieve retrieves retrieving search searches searching
    look looks looking lookup identify identifies calculate calculates calculating compute computes computing
    determine determines estimate estimates estimating predict predicts predicting generate generates generating
    create creates creating make makes making made book books booking play plays playing provide provides providing
    check checks checking convert converts converting plot plots plotting sort sorts sorting run runs running
    perform performs performing train trains build builds analyze analyzes analyzing analyse analyses assess
    evaluate evaluates solve solves solving update updates updating delete deletes deleting add adds adding remove
    removes removing send sends sending translate translates translating order orders ordering set sets use uses
    using used need needs want wants wanted know help helps like likes would could should want wish buy buys
    buying purchase purchases sell sells selling rent rents reserve reserves schedule schedules compare compares
    comparing measure measures describe describes explain explains recommend recommends suggest suggests
    locate locates discover discovers see go goes going take takes taking taken bring keep let say says said
    happen happens happening happened include includes including included contain contains containing apply
    applies applied consider considering assume assuming given called named titled located based related
    regarding involving featuring produced released published written directed made invented discovered
    proposed won played managed held planning plan plans starting start starts ending end ends remind reminds""".split())

#: Words that frame a request ("the *latest* news", "*information* about") rather than give a value.
FRAMING = frozenset("""top best worst latest newest oldest most least highest lowest biggest largest smallest cheapest
    nearest closest fastest quickest shortest longest next last previous upcoming recent current new old major
    main important notable famous popular various different specific certain particular available possible
    detailed detail details information info data list names name type types kind kinds sort number numbers lot
    lots way ways terms basis result results thing things stuff something anything everything one ones value
    values amount amounts total average overall approximate approximately around roughly exact exactly
    example instance case cases question answer me help some few several many much any whole entire full
    good great nice free near nearby local first second third fourth fifth sixth final initial past future
    coming provided given specified desired following selected chosen mentioned above below said
    corresponding respective respectively""".split())


@dataclass(frozen=True)
class Phrase:
    """A run of content words that may be a free-text value.

    Attributes:
        text: the words as written; ``start``/``end``: their span in the request.
        words: the lower-case words.
        prep: the preposition right before it ("" when none): "about" in "about fraud".
        lead: the word that preposition follows ("point" in "boiling point of water").
        head_after: the tool's own word right after it ("vehicle" in "gas-powered vehicle").
        joined: True for an "X of Y" phrase offered whole.
        after_tool: True when it follows one of the tool's words with nothing between ("Mohs *scale*").
    """

    text: str
    start: int
    end: int
    words: tuple[str, ...]
    prep: str = ""
    lead: str = ""
    head_after: str = ""
    joined: bool = False
    after_tool: bool = False

    def as_mention(self) -> Mention:
        """The phrase as a ``phrase`` :class:`~.reading.Mention` (for coordination and spans)."""
        return Mention("phrase", self.text, self.text, self.start, self.end,
                       extra=(("prep", self.prep), ("lead", self.lead), ("head_after", self.head_after),
                              ("joined", self.joined), ("after_tool", self.after_tool)))

    def __repr__(self) -> str:
        return f"Phrase({self.text!r}{' after ' + self.prep if self.prep else ''})"


def _word_class(word: str, tool_vocab: frozenset[str]) -> str:
    if word in FUNCTION_WORDS:
        return "prep" if word in PREPOSITIONS else "func"
    if word in VERBS:
        return "verb"
    st = lang.stem(word)
    if st in tool_vocab or word in tool_vocab:
        return "tool"
    if word in FRAMING:
        return "frame"
    if word.isdigit() or len(word) < 2 and word not in ("a",):
        return "func"
    return "content"


class _PhraseScan:
    """One pass over a reading's words, collecting runs of content words as :class:`Phrase`.

    The state is what the next word needs to know: the run so far, the class and word before it,
    the preposition before the run and the word it hangs from, and whether the run started right
    after one of the tool's words.
    """

    def __init__(self, text: str, tool_vocab: frozenset[str], spans: list[tuple[int, int]]) -> None:
        self.text, self.tool_vocab, self.spans = text, tool_vocab, spans
        self.out: list[Phrase] = []
        self.run: list[tuple[str, int, int]] = []
        self.prev_class = ""  # the class of the word before the current run
        self.prev_word = ""
        self.lead = ""  # the last content or tool word before the preposition
        self.prep = ""
        self.last_end = -1
        self.after_tool = False  # the run goes on right after one of the tool's words ("the Mohs [scale]")

    def flush(self, head_after: str = "") -> None:
        """End the current run (if any) as a phrase; ``head_after`` is the tool word right after it."""
        if self.run:
            s, e = self.run[0][1], self.run[-1][2]
            self.out.append(Phrase(self.text[s:e], s, e, tuple(w for w, _, _ in self.run), self.prep, self.lead,
                                   head_after, False, self.after_tool))
            self.run.clear()

    def _in_span(self, s: int) -> bool:
        for a, b in self.spans:  # a loop, not any(genexpr): it runs for every word of the request
            if a <= s < b:
                return True
        return False

    def word(self, word: str, s: int, e: int) -> None:
        """Take the next word (lower-case, at ``s:e``)."""
        text = self.text
        gap = text[self.last_end:s] if self.last_end >= 0 else ""
        if self.run and gap.strip(" -'’"):
            self.flush()
            self.prep = ""
        if self._in_span(s):
            self.flush()
            # "the Mohs scale": a name the tool itself uses still counts as the tool's word
            self.prev_class = "tool" if lang.stem(word) in self.tool_vocab else "mention"
            self.prev_word, self.prep = word, ""
            self.last_end = e
            return
        w = word[:-2] if word.endswith(("'s", "’s")) else word
        cls = _word_class(w, self.tool_vocab)
        if self.prev_word == "how" and cls == "content":
            cls = "frame"  # "how hard", "how far": what is asked, not a value
        if cls == "content":
            if not self.run:
                self.after_tool = self.prev_class == "tool" and not text[self.last_end:s].strip()
            self.run.append((w, s, s + len(w)))
            if w != word:  # "the rat's brain": a possessive ends the phrase
                self.flush()
                self.prep = ""
        else:
            self.flush(head_after=w if cls == "tool" else "")
            if cls == "prep":
                self.prep = w
                self.lead = self.prev_word if self.prev_class in ("content", "tool", "frame", "mention") else ""
            elif cls != "func" or self.prev_class not in ("prep", "func") or not self.prep:
                self.prep, self.lead = "", ""
        self.prev_class = cls
        self.prev_word = w
        self.last_end = e


def _joined(out: list[Phrase], text: str) -> list[Phrase]:
    """"theory of relativity", "law of universal gravitation": each "X of Y" of two neighbouring
    phrases as one value too (not when X is framing: "the list of ...")."""
    joined: list[Phrase] = []
    for a, b in zip(out, out[1:]):
        between = text[a.end:b.start].strip().lower()
        if between in ("of", "of the") and all(w not in FRAMING for w in a.words):
            joined.append(Phrase(text[a.start:b.end], a.start, b.end, a.words + ("of",) + b.words, a.prep, a.lead,
                                 b.head_after, True, a.after_tool))
    return joined


def phrases(reading: Reading, tool_vocab: frozenset[str], spans: list[tuple[int, int]]) -> list[Phrase]:
    """The noun phrases of ``reading`` that the tool's words (``tool_vocab``, stems) do not cover.

    Args:
        reading: the request, read by :func:`~.reading.read`.
        tool_vocab: stems of the tool's name and parameter names (and their synonyms).
        spans: character spans of typed mentions (numbers, places, names...): phrases stop there.

    Returns:
        The phrases in order, each "X of Y" phrase followed by its parts.
    """
    scan = _PhraseScan(reading.text, tool_vocab, spans)
    for word, s, e in reading.words:
        scan.word(word, s, e)
    scan.flush()
    return sorted(scan.out + _joined(scan.out, reading.text), key=lambda p: (p.start, -p.end))
