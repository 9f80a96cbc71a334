"""Arithmetic in a request: find it in words and symbols, write it for a calculator, evaluate it safely.

A model reads "what is 17*23?", "(3+4)^2", "three plus one", "15 % of 80", "what is 12 divided by 4",
一百减三十七 or 3的平方 as a computation, and then

* passes the expression to a calculator's string argument (``calculator(expression="17 * 23")``),
* or the numbers to a tool of one operation (``multiply(x=17, y=23)``, ``add(a=3, b=1)``),
* and, once the tool answers, says the result: "17 × 23 = 391".

This module does the reading and the writing; the engine asks it three things: the concepts a
request's arithmetic brings to tool choice (:func:`concepts`), the arguments of a calculator or
operation tool (:func:`fill`), and the answer sentence after the result (:func:`answer`).
:func:`evaluate` computes an expression string with Python's :mod:`ast` (never ``eval``), with
bounded exponents and factorials, so a lesson's calculator tool can use it too.

How it reads: the text becomes tokens (numbers in digits, English words or Chinese numerals;
operators as symbols, words or Chinese words; a few function names), and a small recursive-descent
parser takes the longest run of tokens that is an expression with at least one operation. Runs
that touch a letter or an operator at their edges ("3x^2 + 2x": algebra, not arithmetic) are not
taken, and a bare "2026-12-01", "24/7" or "5-10" counts only when the request asks to compute it
("what is 100-37", "=").

Source: the calculator tools of the function-calling tutorials (OpenAI cookbook, LangChain's
``llm-math``, MCP example servers), whose requests are exactly these.
"""
from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Union

from . import language as lang
from ..package_data import load_json

_SHARES_DATA = load_json("percent_shares.json")
#: "15% tip on $84.50": the nouns of a share written as a percent (``course_lib/data/percent_shares.json``).
PERCENT_SHARES = frozenset(w for s in _SHARES_DATA["shares"] for w in s.split())
_CURRENCY_SIGNS = frozenset("$€£¥￥")
_SHARE_JOINERS, _SHARE_ARTICLES = frozenset(_SHARES_DATA["joiners"]), frozenset(_SHARES_DATA["articles"])

# ------------------------------------------------------------------------------ vocabulary (data)
#: Word operators, longest first when scanned: surface form (a regex) -> token.
#: ``("op", sym)`` binary, ``("post", sym)`` after its operand, ``("pre", fn)`` before it,
#: ``("bin", op)`` a prefix form taking two operands ("the sum of A and B"), ``("sep", word)`` a joiner.
WORD_OPERATORS: tuple[tuple[str, tuple[str, str]], ...] = (
    (r"multiplied\s+by", ("op", "*")), (r"divided\s+by", ("op", "/")), (r"times", ("op", "*")),
    (r"plus", ("op", "+")), (r"minus", ("op", "-")), (r"over", ("op", "/")), (r"x", ("op", "*")),
    (r"added\s+to", ("op", "+")),
    (r"(?:raised\s+)?to\s+the\s+power(?:\s+of)?", ("op", "**")), (r"raised\s+to", ("op", "**")), (r"mod(?:ulo)?", ("op", "%")),
    (r"squared", ("post", "sq")), (r"cubed", ("post", "cube")), (r"factorial", ("post", "!")),
    (r"per\s*cent|percent", ("post", "%")),
    (r"(?:the\s+)?square\s+root\s+of|sqrt\s+of", ("pre", "sqrt")), (r"(?:the\s+)?cube\s+root\s+of", ("pre", "cbrt")),
    (r"(?:the\s+)?factorial\s+of", ("pre", "factorial")), (r"(?:the\s+)?(?:natural\s+)?log(?:arithm)?\s+of", ("pre", "log")),
    (r"(?:the\s+)?absolute\s+value\s+of", ("pre", "abs")),
    (r"(?:the\s+)?sum\s+of", ("bin", "+")), (r"(?:the\s+)?product\s+of", ("bin", "*")),
    (r"(?:the\s+)?difference\s+(?:between|of)", ("bin", "-")), (r"(?:the\s+)?quotient\s+of", ("bin", "/")),
    (r"add", ("bin", "+")), (r"multiply", ("bin", "*")), (r"subtract", ("bin", "-")), (r"divide", ("bin", "/")),
    (r"and", ("sep", "and")), (r"by", ("sep", "by")), (r"from", ("sep", "from")), (r"to", ("sep", "to")),
    (r"with", ("sep", "with")), (r"of", ("sep", "of")),
)
#: Chinese operators (matched as written, no word boundaries).
ZH_OPERATORS: tuple[tuple[str, tuple[str, str]], ...] = (
    (r"乘以|乘", ("op", "*")), (r"除以", ("op", "/")), (r"加上|加", ("op", "+")), (r"减去|减", ("op", "-")),
    (r"的平方根", ("post", "sqrt")), (r"的立方根", ("post", "cbrt")), (r"的平方", ("post", "sq")),
    (r"的立方", ("post", "cube")), (r"的阶乘", ("post", "!")), (r"开根号|根号", ("pre", "sqrt")),
    (r"的(?=\d|[零一二两三四五六七八九十]+次)", ("sep", "的pow")), (r"次方|次幂", ("post", "pow")),
    (r"的", ("sep", "的")), (r"和|与|跟", ("sep", "and")),
)
#: Functions written with brackets: name -> (python name, display name).
FUNCTIONS = {"sqrt": "sqrt", "cbrt": "cbrt", "sin": "sin", "cos": "cos", "tan": "tan", "log": "log", "ln": "log",
             "log10": "log10", "log2": "log2", "exp": "exp", "abs": "abs", "factorial": "factorial",
             "round": "round", "floor": "floor", "ceil": "ceil"}
CONSTANTS = {"pi": math.pi, "π": math.pi, "tau": math.tau}

#: What a request's arithmetic says about the tool it needs: concepts every computation brings, and
#: those of its operation (stems are taken with :func:`language.stem`, as tool words are).
GENERAL_CONCEPTS = ("calculator", "calculate", "calculation", "math", "mathematical", "maths", "arithmetic",
                    "expression", "evaluate", "compute")
OPERATION_CONCEPTS = {
    "+": ("add", "addition", "sum", "plus"), "-": ("subtract", "subtraction", "minus", "difference"),
    "*": ("multiply", "multiplication", "product", "times"), "/": ("divide", "division", "quotient"),
    "**": ("power", "exponent", "exponentiation", "pow"), "%": ("modulo", "remainder", "mod"),
    "pct": ("percent", "percentage"), "sqrt": ("sqrt", "root", "square"), "cbrt": ("root", "cube"),
    "!": ("factorial",), "factorial": ("factorial",), "log": ("log", "logarithm"),
}
#: Tool-name words that name one operation (``add(a, b)``, ``multiply_numbers``, ``power(base, exponent)``).
OPERATION_NAMES = {"add": "+", "addition": "+", "sum": "+", "plus": "+", "subtract": "-", "subtraction": "-",
                   "minus": "-", "sub": "-", "multiply": "*", "multiplication": "*", "product": "*", "mul": "*",
                   "times": "*", "divide": "/", "division": "/", "quotient": "/", "div": "/", "power": "**",
                   "pow": "**", "exponent": "**", "exponentiate": "**", "sqrt": "sqrt", "mod": "%", "modulo": "%",
                   "remainder": "%", "percent": "pct", "percentage": "pct", "factorial": "!"}
#: Words of a tool or parameter that say it takes an expression as a string.
_EXPRESSION_WORDS = frozenset({"expression", "expr", "formula", "equation", "calculation", "math", "arithmetic",
                               "maths", "mathematical", "sum", "problem"})
_CALCULATOR_WORDS = frozenset({"calculator", "calc", "calculate", "compute", "evaluate", "eval", "math", "maths",
                               "arithmetic", "wolfram", "numexpr", "mathematical", "calculation"})
#: Operand roles by parameter name: the first operand's names, then the second's.
_FIRST = frozenset({"a", "x", "first", "num1", "number1", "n1", "x1", "left", "lhs", "base", "dividend", "numerator",
                    "minuend", "value", "operand1", "augend", "multiplicand"})
_SECOND = frozenset({"b", "y", "second", "num2", "number2", "n2", "x2", "right", "rhs", "exponent", "exp", "power",
                     "divisor", "denominator", "subtrahend", "operand2", "addend", "multiplier"})
_PERCENT_NAMES = frozenset({"percent", "percentage", "pct", "rate"})
#: A request that asks to compute ("what is 100-37", "=", 等于多少): the cue a bare "a-b" or "a/b" needs.
_CUE = re.compile(r"(?:\b(?:what(?:'s|’s| is| are)|how much is|calculate|compute|evaluate|work out|solve|"
                  r"simplify|result of)\s*$)|(?:计算|算一下|算算|算|求)\s*$", re.I)
_CUE_AFTER = re.compile(r"^\s*(?:=|equals?\b|is equal to\b|等于|是多少|得多少|等于几)", re.I)

MAX_EXPONENT = 1000  # |b| in a ** b
MAX_BITS = 4096  # an integer power's size
MAX_FACTORIAL = 500
MAX_LENGTH = 400  # characters of an expression :func:`evaluate` accepts


# ------------------------------------------------------------------------------ tokens
@dataclass(frozen=True)
class _Tok:
    kind: str  # num, op, post, pre, bin, sep, lp, rp, fn, const, word
    value: Any
    start: int
    end: int
    pct: bool = False  # a number written as a percent ("15%", 百分之十五)


#: A Chinese numeral, with its decimal part when one is written (三点五 = 3.5, 零点二五 = 0.25): in arithmetic a
#: 点 between digits is the decimal point (outside it, 三点 is three o'clock: the time readers handle that).
_ZH_NUMERAL = r"[零〇一二两三四五六七八九十百千万]+(?:点[零〇一二三四五六七八九]+)?"
_SCAN = re.compile(
    r"(?P<num>(?<![A-Za-z0-9_.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d])|(?<![A-Za-z0-9_.])\.\d+)"
    r"|(?P<zhpct>百分之(?:\d+(?:\.\d+)?|" + _ZH_NUMERAL + r"))"
    r"|(?P<zhnum>" + _ZH_NUMERAL + r")"
    r"|(?P<sym>\*\*|[-+*/^×÷·−%％!()（）√π])"
    r"|(?P<word>[A-Za-z]+)"
    r"|(?P<zh>[\u3400-\u9fff])"
    r"|(?P<other>\S)")
_WORD_RX = [(re.compile(r"(?:" + p + r")\b", re.I), tok) for p, tok in WORD_OPERATORS]
_ZH_RX = [(re.compile(p), tok) for p, tok in ZH_OPERATORS]
_SYMBOLS = {"**": ("op", "**"), "^": ("op", "**"), "*": ("op", "*"), "×": ("op", "*"), "·": ("op", "*"),
            "/": ("op", "/"), "÷": ("op", "/"), "+": ("op", "+"), "-": ("op", "-"), "−": ("op", "-"),
            "%": ("post", "%"), "％": ("post", "%"), "!": ("post", "!"), "(": ("lp", "("), "（": ("lp", "("),
            ")": ("rp", ")"), "）": ("rp", ")"), "√": ("pre", "sqrt")}
_YI_WORDS = frozenset("下些起直般样定切旦边致同会点")  # 一下, 一些...: no number one


def _number_words(text: str, pos: int) -> tuple[float, int] | None:
    """English number words at ``pos``: (value, end) or None ("twenty five" -> 25)."""
    from .reading import parse_number_words

    words = list(re.finditer(r"[A-Za-z]+", text[pos:pos + 80]))
    if not words or words[0].start() != 0:
        return None
    got = parse_number_words([w.group(0).lower() for w in words])
    if got is None:
        return None
    value, used = got
    return value, pos + words[used - 1].end()


def _chinese_decimal(raw: str) -> int | float | None:
    """A Chinese numeral with an optional decimal part: ``"三点五"`` -> 3.5, ``"十五"`` -> 15, None if unreadable."""
    whole, _, frac = raw.partition("点")
    value = lang.chinese_number(whole)
    if value is None or not frac:
        return value
    digits = [lang.chinese_number(ch) if ch not in "零〇" else 0 for ch in frac]
    if any(d is None for d in digits):
        return None
    return float(f"{value}." + "".join(str(d) for d in digits))


@lru_cache(maxsize=2048)
def _tokens(text: str) -> tuple[_Tok, ...]:
    out: list[_Tok] = []
    pos = 0
    while pos < len(text):
        m = _SCAN.search(text, pos)
        if m is None:
            break
        pos = m.end()
        kind = m.lastgroup
        raw = m.group(0)
        if kind == "num":
            v = float(raw.replace(",", ""))
            out.append(_Tok("num", int(v) if v.is_integer() and "." not in raw else v, m.start(), m.end()))
        elif kind == "zhpct":
            inner = raw[3:]
            v = float(inner) if inner[0].isdigit() else _chinese_decimal(inner)
            if v is not None:
                out.append(_Tok("num", int(v) if float(v).is_integer() else v, m.start(), m.end(), pct=True))
        elif kind == "zhnum":
            if raw == "一" and text[m.end():m.end() + 1] in _YI_WORDS:
                out.append(_Tok("word", raw, m.start(), m.end()))
                continue
            v = _chinese_decimal(raw)
            out.append(_Tok("num", v, m.start(), m.end()) if v is not None else _Tok("word", raw, m.start(), m.end()))
        elif kind == "sym":
            k, v = _SYMBOLS[raw]
            out.append(_Tok(k, v, m.start(), m.end()))
        elif kind == "word":
            pos = _scan_word(text, m.start(), out)
        elif kind == "zh":
            pos = _scan_zh(text, m.start(), out)
        else:
            out.append(_Tok("word", raw, m.start(), m.end()))
    return tuple(out)


def _scan_word(text: str, at: int, out: list[_Tok]) -> int:
    """Tokens of the English word(s) at ``at``; returns where scanning goes on."""
    low_word = re.match(r"[A-Za-z]+", text[at:]).group(0).lower()
    if low_word in CONSTANTS:
        out.append(_Tok("const", low_word, at, at + len(low_word)))
        return at + len(low_word)
    fn = re.match(r"([A-Za-z]+\d*)\s*(?=[(（])", text[at:])
    if fn and fn.group(1).lower() in FUNCTIONS:
        out.append(_Tok("fn", FUNCTIONS[fn.group(1).lower()], at, at + len(fn.group(1))))
        return at + len(fn.group(1))
    power = re.match(r"to\s+the\s+(\d+)(?:st|nd|rd|th)(?:\s+power)?\b", text[at:], re.I)
    if power:  # "2 to the 10th power"
        out.append(_Tok("op", "**", at, at + power.start(1)))
        out.append(_Tok("num", int(power.group(1)), at + power.start(1), at + power.end()))
        return at + power.end()
    for rx, (kind, value) in _WORD_RX:
        m = rx.match(text, at)
        if m:
            if value == "*" and m.group(0).lower() == "x" and not _between_numbers(text, at, m.end()):
                break  # "x" is a variable or a letter unless it stands between two figures ("3 x 4")
            out.append(_Tok(kind, value, at, m.end()))
            return m.end()
    words = _number_words(text, at)
    if words:
        value, end = words
        out.append(_Tok("num", int(value) if float(value).is_integer() else value, at, end))
        return end
    end = at + len(low_word)
    out.append(_Tok("word", low_word, at, end))
    return end


def _between_numbers(text: str, start: int, end: int) -> bool:
    return bool(re.search(r"\d\s*$", text[:start])) and bool(re.match(r"\s*\d", text[end:]))


def _scan_zh(text: str, at: int, out: list[_Tok]) -> int:
    for rx, (kind, value) in _ZH_RX:
        m = rx.match(text, at)
        if m:
            out.append(_Tok(kind, value, at, m.end()))
            return m.end()
    out.append(_Tok("word", text[at], at, at + 1))
    return at + 1


# ------------------------------------------------------------------------------ parse tree
@dataclass(frozen=True)
class Num:
    value: Union[int, float]
    pct: bool = False  # written as a percent: its value is value / 100


@dataclass(frozen=True)
class Const:
    name: str


@dataclass(frozen=True)
class Bin:
    op: str  # + - * / ** % pct (a percent of b)
    left: "Node"
    right: "Node"


@dataclass(frozen=True)
class Fn:
    name: str  # sqrt cbrt factorial log sin ... neg sq cube
    arg: "Node"


Node = Union[Num, Const, Bin, Fn]
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2, "pct": 2, "**": 3}


class _Parser:
    """Recursive descent over the tokens from one start; ``None`` where no expression continues."""

    def __init__(self, toks: tuple[_Tok, ...]) -> None:
        self.toks, self.i, self.depth = toks, 0, 0

    def peek(self, k: int = 0) -> _Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def _share_words(self) -> int:
        """How many tokens "tip on a", "sales tax for the" take after a percent before its amount (0: none)."""
        k = 0
        while (t := self.peek(k)) is not None and t.kind == "word" and t.value in PERCENT_SHARES:
            k += 1
        if not k or (t := self.peek(k)) is None or t.value not in _SHARE_JOINERS:
            return 0
        k += 1
        for words in (_SHARE_ARTICLES, _CURRENCY_SIGNS):  # "on a $45 bill", "for the €80"
            if (t := self.peek(k)) is not None and t.kind == "word" and t.value in words:
                k += 1
        return k if (t := self.peek(k)) is not None and t.kind == "num" else 0

    def expr(self) -> Node | None:
        left = self.term()
        while left is not None and (t := self.peek()) is not None and t.kind == "op" and t.value in "+-":
            save = self.i
            self.i += 1
            right = self.term()
            if right is None:
                self.i = save
                break
            left = Bin(t.value, left, right)
        return left

    def term(self) -> Node | None:
        left = self.factor()
        while left is not None and (t := self.peek()) is not None:
            save = self.i
            if t.kind == "op" and t.value in ("*", "/", "%"):
                self.i += 1
                right = self.factor()
                op = t.value
            elif t.kind == "sep" and t.value in ("of", "的") and isinstance(left, Num) and left.pct and t.value == "of":
                self.i += 1  # "15% of 80"
                right = self.factor()
                op = "pct"
            elif isinstance(left, Num) and left.pct and (skip := self._share_words()):
                self.i += skip  # "15% tip on $84.50": 15 % of 84.50
                right = self.factor()
                op = "pct"
            elif t.kind == "sep" and t.value == "的" and (n := self.peek(1)) is not None and n.kind == "num" and n.pct:
                self.i += 1  # "80的百分之十五": 15 % of 80
                right = self.factor()
                if right is not None:
                    left, right = right, left
                op = "pct"
            elif t.kind == "post" and t.value == "%" and (n := self.peek(1)) is not None and n.kind in ("num", "lp"):
                self.i += 1  # "17 % 5": the remainder
                right = self.factor()
                op = "%"
            else:
                break
            if right is None:
                self.i = save
                break
            left = Bin(op, left, right)
        return left

    def factor(self) -> Node | None:
        base = self.unary()
        t = self.peek()
        if base is not None and t is not None and (t.kind == "op" and t.value == "**" or t.kind == "sep" and t.value == "的pow"):
            save = self.i
            self.i += 1
            exponent = self.factor()
            if t.value == "的pow":  # 2的10次方
                nxt = self.peek()
                if exponent is None or nxt is None or nxt.kind != "post" or nxt.value != "pow":
                    self.i = save
                    return base
                self.i += 1
            if exponent is None:
                self.i = save
                return base
            return Bin("**", base, exponent)
        return base

    def unary(self) -> Node | None:
        t = self.peek()
        if t is None:
            return None
        self.depth += 1
        try:
            if self.depth > 60:
                return None
            if t.kind == "op" and t.value == "-":
                self.i += 1
                inner = self.unary()
                return None if inner is None else Fn("neg", inner)
            if t.kind == "pre":
                self.i += 1
                inner = self.unary()
                return None if inner is None else self.postfix(Fn(t.value, inner))
            return self.postfix(self.primary())
        finally:
            self.depth -= 1

    def primary(self) -> Node | None:
        t = self.peek()
        if t is None:
            return None
        if t.kind == "num":
            self.i += 1
            return Num(t.value, t.pct)
        if t.kind == "const":
            self.i += 1
            return Const(t.value)
        if t.kind == "lp":
            return self.bracket()
        if t.kind == "fn" and (n := self.peek(1)) is not None and n.kind == "lp":
            self.i += 1
            inner = self.bracket()
            return None if inner is None else Fn(t.value, inner)
        if t.kind == "bin":
            return self.prefix_binary(t.value)
        return None

    def bracket(self) -> Node | None:
        save = self.i
        self.i += 1
        inner = self.expr()
        t = self.peek()
        if inner is None or t is None or t.kind != "rp":
            self.i = save
            return None
        self.i += 1
        return inner

    def prefix_binary(self, op: str) -> Node | None:
        """"the sum of A and B", "subtract A from B", "multiply A by B", "divide A by B"."""
        save = self.i
        self.i += 1
        a = self.unary()
        sep = self.peek()
        joins = {"+": ("and", "to", "with"), "-": ("and", "from"), "*": ("and", "by", "with"), "/": ("by", "and")}[op]
        if a is None or sep is None or sep.kind != "sep" or sep.value not in joins:
            self.i = save
            return None
        self.i += 1
        b = self.unary()
        if b is None:
            self.i = save
            return None
        if op == "-" and sep.value == "from":
            a, b = b, a  # "subtract 37 from 100": 100 - 37
        return Bin(op, a, b)

    def postfix(self, node: Node | None) -> Node | None:
        while node is not None and (t := self.peek()) is not None and t.kind == "post":
            if t.value == "%":
                nxt = self.peek(1)
                if not isinstance(node, Num) or node.pct or nxt is not None and nxt.kind in ("num", "lp"):
                    break  # "17 % 5" is a remainder (term), not a percent
                node = Num(node.value, True)
            elif t.value in ("sq", "cube", "!", "sqrt", "cbrt"):
                node = Fn(t.value if t.value not in ("!",) else "factorial", node)
            else:
                break
            self.i += 1
        return node


def _operations(node: Node) -> int:
    if isinstance(node, Bin):
        return 1 + _operations(node.left) + _operations(node.right)
    if isinstance(node, Fn):
        return (0 if node.name == "neg" else 1) + _operations(node.arg)
    return 0


# ------------------------------------------------------------------------------ finding
@dataclass(frozen=True)
class Arithmetic:
    """One computation a request asks for.

    Attributes:
        tree: the parsed expression (``Num``, ``Const``, ``Bin``, ``Fn`` nodes).
        text: the words as written; ``start``/``end``: their span in the request.
    """

    tree: Node
    text: str
    start: int
    end: int

    @property
    def expression(self) -> str:
        """Python syntax: ``"17 * 23"``, ``"(3 + 4) ** 2"``, ``"15 / 100 * 80"``, ``"sqrt(2)"``."""
        return python_form(self.tree)

    @property
    def shown(self) -> str:
        """As a person writes it in an answer: ``"17 × 23"``, ``"(3 + 4)^2"``, ``"15 % of 80"``."""
        return display_form(self.tree)

    @property
    def operation(self) -> str:
        """The outermost operation: ``+ - * / ** % pct`` or a function name (``sqrt``, ``factorial``)."""
        node = self.tree
        if isinstance(node, Bin):
            return node.op
        if isinstance(node, Fn):
            return {"sq": "**", "cube": "**"}.get(node.name, node.name)
        return ""

    @property
    def operands(self) -> list[Union[int, float]]:
        """The numbers of a flat computation (one operation over plain numbers), in order; [] otherwise.

        ``3 + 4 + 5`` -> [3, 4, 5]; ``17 * 23`` -> [17, 23]; ``15 % of 80`` -> [15, 80]; ``3 squared`` -> [3, 2];
        ``sqrt(16)`` -> [16]; ``(3 + 4) * 2`` -> [] (two operations: no single tool call holds it).
        """
        return _flat_operands(self.tree, self.operation)

    @property
    def first_step(self) -> "Arithmetic | None":
        """The computation to do first with one-operation tools: ``(3 + 4) * 2`` -> ``3 + 4``; itself when flat."""
        node = _first_plain(self.tree)
        return None if node is None else Arithmetic(node, self.text, self.start, self.end)

    @property
    def value(self) -> Union[int, float, None]:
        """The result (None when it cannot be computed: division by zero, a bound exceeded)."""
        try:
            return _tidy(_eval_tree(self.tree))
        except (ArithmeticError, ValueError, TypeError):
            return None


def _flat_operands(node: Node, op: str) -> list:
    if isinstance(node, Num):
        return [node.value]
    if isinstance(node, Fn):
        if node.name in ("sq", "cube") and isinstance(node.arg, Num):
            return [node.arg.value, 2 if node.name == "sq" else 3]
        if node.name not in ("neg",) and isinstance(node.arg, Num) and not node.arg.pct:
            return [node.arg.value]
        if node.name == "neg" and isinstance(node.arg, Num):
            return [-node.arg.value]
        return []
    if isinstance(node, Bin) and node.op == op:
        if op in ("+", "*"):  # associative: 1 + 2 + 3
            left, right = _flat_operands(node.left, op), _flat_operands(node.right, op)
        else:
            left = [node.left.value] if isinstance(node.left, Num) else []
            right = [node.right.value] if isinstance(node.right, Num) else []
        if op == "pct" and isinstance(node.left, Num):
            left = [node.left.value]
        if left and right and all(not (isinstance(n, Num) and n.pct) for n in (node.left, node.right) if op != "pct"):
            return left + right
    return []


def _plain(node: Node) -> bool:
    """One operation over plain numbers: ``3 + 4``, ``sqrt(16)``, ``15 % of 80``."""
    if isinstance(node, Bin):
        return all(isinstance(n, Num) and (not n.pct or node.op == "pct") for n in (node.left, node.right))
    return isinstance(node, Fn) and node.name != "neg" and isinstance(node.arg, Num) and not node.arg.pct


def _first_plain(node: Node) -> Node | None:
    """The first operation to compute, in evaluation order (left to right, innermost first)."""
    if _plain(node):
        return node
    for child in ((node.left, node.right) if isinstance(node, Bin) else (node.arg,) if isinstance(node, Fn) else ()):
        hit = _first_plain(child)
        if hit is not None:
            return hit
    return None


def _replace(node: Node, old: Node, new: Node) -> Node:
    """``node`` with its first occurrence of ``old`` replaced by ``new``."""
    if node is old:
        return new
    if isinstance(node, Bin):
        left = _replace(node.left, old, new)
        return Bin(node.op, left, node.right if left is not node.left else _replace(node.right, old, new))
    if isinstance(node, Fn):
        return Fn(node.name, _replace(node.arg, old, new))
    return node


def _clean_edges(toks: tuple[_Tok, ...], a: int, b: int, text: str) -> bool:
    """An expression's tokens ``a..b-1`` stand alone: no operator, letter variable or number glued to them."""
    before = toks[a - 1] if a else None
    after = toks[b] if b < len(toks) else None
    for t in (before, after):
        if t is None:
            continue
        if t.kind in ("op", "num", "const", "fn") or t.kind == "post" and t is after and t.value != "%":
            return False
        if t.kind == "word" and len(t.value) == 1 and t.value.isascii() and t.value.isalpha() and t.value not in "ai" \
                and text[t.start - 1:t.start] not in ("'", "’"):
            return False  # "3x^2 + 2x": a variable beside the numbers (not the "s" of "what's")
    if before is not None and before.kind == "word" and text[before.end:toks[a].start] == "":
        return before.value.isascii() is False  # "abc12+3": glued to a word
    return True


_BARE = re.compile(r"\d+(?:\.\d+)?[-/]\d+(?:\.\d+)?(?:[-/]\d+(?:\.\d+)?)*")


def _asked(text: str, start: int, end: int, raw: str) -> bool:
    """Whether a bare "100-37" / "24/7" is a computation: a cue before or after, or the whole message."""
    if not _BARE.fullmatch(raw.replace(" ", "")) or " " in raw.strip():
        return True
    rest = text[end:].strip(" ?？!！.。")
    return bool(_CUE.search(text[:start]) or _CUE_AFTER.match(text[end:])) and not re.match(r"[A-Za-z\u4e00-\u9fff]", rest[:1]) \
        or not text[:start].strip() and not rest or bool(_CUE_AFTER.match(text[end:]))


#: What may stand between two computations asked together: "7 + 5, and 20 - 8", "3*4 then 10/2".
_LISTED = re.compile(r"^[\s,;]*(?:and|also|then|plus|as well as)?[\s,;]*(?:(?:what(?:'s|’s| is| about)|how about)\s*)?$",
                     re.I)


@lru_cache(maxsize=2048)
def find(text: str) -> tuple[Arithmetic, ...]:
    """Every computation ``text`` asks for, in order (none when it holds no arithmetic).

    Example:
        >>> [a.expression for a in find("What's the weather in Shanghai and what is 17*23?")]
        ['17 * 23']
        >>> [a.expression for a in find("一百减三十七等于多少？")]
        ['100 - 37']
    """
    if not _maybe(text):
        return ()
    toks = _tokens(text)
    shares = _zh_shares(text) if not text.isascii() else []
    out: list[Arithmetic] = []
    i = 0
    while i < len(toks):
        if toks[i].kind not in ("num", "lp", "pre", "fn", "bin", "const") and not (
                toks[i].kind == "op" and toks[i].value == "-"):
            i += 1
            continue
        p = _Parser(toks[i:])
        tree = p.expr()
        j = i + p.i
        if tree is not None and _operations(tree) and _clean_edges(toks, i, j, text):
            start, end = toks[i].start, toks[j - 1].end
            raw = text[start:end]
            listed = bool(out) and _LISTED.match(text[out[-1].end:start]) is not None and not re.match(
                r"\s*[A-Za-z\u4e00-\u9fff]", text[end:])  # "7 + 5, and 20 - 8?"
            if (listed or _asked(text, start, end, raw)) and _computable(tree):
                out.append(Arithmetic(tree, raw, start, end))
                i = j
                continue
        i += 1
    out = [a for a in out if not any(z.start < a.end and a.start < z.end for z in shares)]
    return tuple(sorted(out + shares, key=lambda a: a.start))


def _alternation(words: list[str]) -> str:
    return "(?:" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + ")"


#: A share of an amount in Chinese, the amount first: "84.5元的账单给15%小费", "账单84.5元，小费15%",
#: "80元的百分之十五的服务费" (the words in ``course_lib/data/percent_shares.json``).
_ZH_AMOUNTS, _ZH_SHARES = _alternation(_SHARES_DATA["zh_amounts"]), _alternation(_SHARES_DATA["zh_shares"])
_ZH_VERBS = _alternation(_SHARES_DATA["zh_verbs"])
_ZH_PERCENT = r"(?:(?P<pct>\d+(?:\.\d+)?)\s*[%％]|百分之(?P<zpct>\d+(?:\.\d+)?|" + _ZH_NUMERAL + "))"
_ZH_SHARE = re.compile(
    rf"(?:{_ZH_AMOUNTS}(?:是|为)?\s*)?[¥￥$€£]?\s*(?<![\d.])(?P<amt>\d+(?:\.\d+)?)(?![\d.])\s*"
    rf"{_alternation(_SHARES_DATA['zh_currencies'])}?的?(?:{_ZH_AMOUNTS})?的?[，,\s]*"
    rf"(?:{_ZH_VERBS}?\s*{_ZH_PERCENT}\s*的?\s*{_ZH_SHARES}|{_ZH_SHARES}\s*{_ZH_VERBS}?\s*"
    + _ZH_PERCENT.replace("?P<pct>", "?P<pct2>").replace("?P<zpct>", "?P<zpct2>") + ")")

_ZH_AMOUNT_SAID = re.compile(rf"[¥￥$€£的]|{_ZH_AMOUNTS}|{_alternation(_SHARES_DATA['zh_currencies'])}")


def _zh_shares(text: str) -> list[Arithmetic]:
    """Chinese shares of an amount, each as ``percent / 100 * amount`` (:data:`_ZH_SHARE`); the amount must be
    said to be money (a currency, a bill noun) or owned by the share (的): "3，15%税" is none.

    >>> [a.expression for a in _zh_shares("84.5元的账单给15%小费")]
    ['15 / 100 * 84.5']
    """
    out = []
    for m in _ZH_SHARE.finditer(text):
        group = next(g for g in ("pct", "zpct", "pct2", "zpct2") if m.group(g))
        raw = m.group(group)
        pct = float(raw) if raw[0].isdigit() else _chinese_decimal(raw)
        if pct is None or not _ZH_AMOUNT_SAID.search(text, m.start(), m.start(group)):
            continue
        tree = Bin("pct", Num(_whole(pct), pct=True), Num(_whole(float(m.group("amt")))))
        out.append(Arithmetic(tree, m.group(0), m.start(), m.end()))
    return out


def _whole(v: Union[int, float]) -> Union[int, float]:
    return int(v) if float(v).is_integer() else v


#: (The lookahead of the words' first letters changes no match: it spares trying every word at each word start.)
_MAYBE = re.compile(r"[-+*/^×÷%％!√π]|\b(?=[acdflmopqrst])(?:plus|minus|times|over|multipl|divid|power|squared|cubed|sqrt|square root|cube "
                    r"root|sum|product|difference|quotient|percent|per cent|mod|factorial|log|add|subtract|raised|"
                    r"absolute)|\d\s*x\s*\d|百分之|[加减乘除方根阶幂]", re.I)


def _maybe(text: str) -> bool:
    return bool(_MAYBE.search(text)) and bool(re.search(r"\d|[零一二两三四五六七八九十百千]|\b(?:zero|one|two|three|four|"
                                                         r"five|six|seven|eight|nine|ten|eleven|twelve|"
                                                         r"thirteen|fourteen|fifteen|sixteen|seventeen|"
                                                         r"eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
                                                         r"seventy|eighty|ninety|hundred|pi)\b", text, re.I))


def _computable(tree: Node) -> bool:
    """Whether the tree is within bounds (a huge power is still a computation, but not one to send)."""
    try:
        _eval_tree(tree)
        return True
    except ZeroDivisionError:
        return True  # "1/0" is asked; the tool will say so
    except (ArithmeticError, ValueError, TypeError):
        return False


# ------------------------------------------------------------------------------ writing
def python_form(node: Node, power: str = "**") -> str:
    """The expression in Python syntax (``power`` spells exponentiation: ``"**"`` or ``"^"``)."""
    return _render(node, power, python=True)


def display_form(node: Node) -> str:
    """The expression as an answer writes it: × and ÷, ^ for powers, "15 % of 80", "5!"."""
    return _render(node, "^", python=False)


def _fmt(v: Union[int, float]) -> str:
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.10g}" if isinstance(v, float) else str(v)


def _render(node: Node, power: str, python: bool, parent: int = 0, right: bool = False) -> str:
    if isinstance(node, Num):
        if node.pct:
            return f"{_fmt(node.value)} / 100" if python else f"{_fmt(node.value)} %"
        return _fmt(node.value)
    if isinstance(node, Const):
        return "pi" if python else "π"
    if isinstance(node, Fn):
        if node.name == "neg":
            return "-" + _render(node.arg, power, python, 4)
        if node.name in ("sq", "cube"):
            return _render(Bin("**", node.arg, Num(2 if node.name == "sq" else 3)), power, python, parent, right)
        if node.name == "factorial" and not python:
            inner = _render(node.arg, power, python, 4)
            return f"{inner}!"
        if node.name == "cbrt" and python:
            return f"cbrt({_render(node.arg, power, python)})"
        return f"{node.name}({_render(node.arg, power, python)})"
    prec = _PRECEDENCE[node.op]
    if node.op == "pct":
        pct = node.left.value if isinstance(node.left, Num) else None
        if python:
            text = f"{_fmt(pct)} / 100 * {_render(node.right, power, python, prec, True)}"
        else:
            text = f"{_fmt(pct)} % of {_render(node.right, power, python, prec, True)}"
    else:
        sym = {"*": "*" if python else "×", "/": "/" if python else "÷", "**": power}.get(node.op, node.op)
        left = _render(node.left, power, python, prec + (1 if node.op == "**" else 0))
        rgt = _render(node.right, power, python, prec + (0 if node.op == "**" else 1), True)
        text = f"{left}{sym}{rgt}" if sym == "^" else f"{left} {sym} {rgt}"
    return f"({text})" if prec < parent else text


# ------------------------------------------------------------------------------ evaluating
def _pow(a: Union[int, float], b: Union[int, float]) -> Union[int, float]:
    if abs(b) > MAX_EXPONENT:
        raise ValueError(f"exponent {b} is beyond the calculator's bound of {MAX_EXPONENT}")
    if isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1 and b * math.log2(abs(a)) > MAX_BITS:
        raise ValueError(f"{a} ** {b} has more than {MAX_BITS} bits")
    result = a ** b
    if isinstance(result, complex):
        raise ValueError("the result is not a real number")
    return result


def _factorial(n: Union[int, float]) -> int:
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    if not isinstance(n, int) or n < 0:
        raise ValueError("factorial needs a whole number >= 0")
    if n > MAX_FACTORIAL:
        raise ValueError(f"factorial of {n} is beyond the calculator's bound of {MAX_FACTORIAL}")
    return math.factorial(n)


def _cbrt(x: float) -> float:
    return math.copysign(abs(x) ** (1 / 3), x)


_CALLS = {"sqrt": math.sqrt, "cbrt": _cbrt, "sin": math.sin, "cos": math.cos, "tan": math.tan, "log": math.log,
          "log10": math.log10, "log2": math.log2, "exp": math.exp, "abs": abs, "factorial": _factorial,
          "round": round, "floor": math.floor, "ceil": math.ceil}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: _pow}


def _eval_tree(node: Node) -> Union[int, float]:
    if isinstance(node, Num):
        return node.value / 100 if node.pct else node.value
    if isinstance(node, Const):
        return CONSTANTS[node.name]
    if isinstance(node, Fn):
        x = _eval_tree(node.arg)
        if node.name == "neg":
            return -x
        if node.name in ("sq", "cube"):
            return _pow(x, 2 if node.name == "sq" else 3)
        return _CALLS[node.name](x)
    a, b = _eval_tree(node.left), _eval_tree(node.right)
    if node.op == "pct":
        return (node.left.value if isinstance(node.left, Num) else a * 100) / 100 * b
    return {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "%": operator.mod,
            "**": _pow}[node.op](a, b)


def _tidy(v: Union[int, float]) -> Union[int, float]:
    if isinstance(v, float):
        if math.isinf(v) or math.isnan(v):
            raise ValueError("the result is not a finite number")
        if v.is_integer() and abs(v) < 1e15:
            return int(v)
        return float(f"{v:.12g}")
    return v


def evaluate(expression: str) -> Union[int, float]:
    """Compute an arithmetic expression string safely, with :mod:`ast` (never ``eval``).

    Accepts Python syntax (``+ - * / // % **``, brackets), ``^`` for powers, ``×`` ``÷``, the functions
    of :data:`FUNCTIONS` (``sqrt(2)``, ``factorial(5)``) and ``pi``.

    Args:
        expression: e.g. ``"17*23"``, ``"(3+4)^2"``, ``"sqrt(2)"``, ``"15 / 100 * 80"``.

    Returns:
        The value: an ``int`` when it is whole (``"12/4"`` -> 3), else a ``float`` to 12 significant digits.

    Raises:
        ValueError: not an arithmetic expression (names, strings, attribute access...), longer than
            :data:`MAX_LENGTH`, an exponent beyond :data:`MAX_EXPONENT`, a factorial beyond :data:`MAX_FACTORIAL`.
        ZeroDivisionError: a division by zero.

    Example:
        >>> evaluate("(3+4)^2"), evaluate("2**10"), evaluate("12 / 4")
        (49, 1024, 3)
    """
    if len(expression) > MAX_LENGTH:
        raise ValueError(f"expression longer than {MAX_LENGTH} characters")
    src = expression.replace("^", "**").replace("×", "*").replace("÷", "/").replace("−", "-").replace("π", "pi")
    try:
        tree = ast.parse(src.strip(), mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"not an arithmetic expression: {expression!r}") from exc
    return _tidy(_eval_ast(tree.body, expression))


def _eval_ast(node: ast.AST, source: str) -> Union[int, float]:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_eval_ast(node.left, source), _eval_ast(node.right, source))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _eval_ast(node.operand, source)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.Name) and node.id in CONSTANTS:
        return CONSTANTS[node.id]
    if isinstance(node, ast.Name) and node.id == "e":
        return math.e
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
            and len(node.args) == 1 and not node.keywords):
        return _CALLS[FUNCTIONS[node.func.id]](_eval_ast(node.args[0], source))
    raise ValueError(f"not an arithmetic expression: {source!r}")


# ------------------------------------------------------------------------------ the engine's questions
@lru_cache(maxsize=1024)
def concepts(text: str) -> frozenset[str]:
    """The concept stems a request's arithmetic brings to tool choice (empty without arithmetic).

    "what is 6 times 7" -> calculator, math, arithmetic, expression... and multiply, product, times: a
    calculator tool and a ``multiply`` tool both share words with it now, the operation's tool most.
    """
    found = find(text)
    if not found:
        return frozenset()
    words = list(GENERAL_CONCEPTS)
    for a in found:  # "(3 + 4) * 2" asks first for an addition
        step = a.first_step or a
        words += OPERATION_CONCEPTS.get(step.operation, ())
    return frozenset(lang.stem(w) for w in words)


def _words_of(name: str) -> set[str]:
    return set(lang.split_identifier(name))


def tool_operation(name: str) -> str | None:
    """The one operation a tool's name says (``add`` -> ``+``, ``multiply_numbers`` -> ``*``), else None."""
    ops = {OPERATION_NAMES[w] for w in _words_of(name) if w in OPERATION_NAMES}
    return ops.pop() if len(ops) == 1 else None


def expression_slot(name: str, description: str, parameters: dict) -> str | None:
    """The string parameter of a calculator that takes the whole expression, else None.

    A parameter named or described as an expression, formula or equation (``expression``, ``expr``,
    "a mathematical expression"); or, on a tool whose name or description says calculator/math, its
    only required string parameter (LangChain's ``Calculator(query)``, ``calculate(input)``).
    """
    props = parameters.get("properties") or {}
    strings = [k for k, s in props.items() if isinstance(s, dict) and s.get("type", "string") == "string"
               and not s.get("enum")]
    for k in strings:
        desc = str(props[k].get("description", "")).lower()
        if _words_of(k) & _EXPRESSION_WORDS or re.search(r"\b(?:expression|formula|equation|arithmetic|calculation)\b",
                                                         desc):
            return k
    tool_words = _words_of(name) | set(re.findall(r"[a-z]+", description.lower()))
    required = [k for k in strings if k in (parameters.get("required") or [])] or strings
    if tool_words & _CALCULATOR_WORDS and len(required) == 1 and len(strings) == 1:
        return required[0]
    return None


def _power_symbol(spec: dict, found: Arithmetic, tool_description: str = "") -> str:
    """How this calculator spells powers: what its description shows, else what the user typed (``**`` by default)."""
    desc = str(spec.get("description", "")) + " " + tool_description
    if re.search(r"\*\*|python|numexpr|sympy", desc, re.I):
        return "**"
    if "^" in desc:
        return "^"
    return "^" if "^" in found.text else "**"


def fill(name: str, description: str, parameters: dict, text: str) -> dict[str, tuple[Any, str]] | None:
    """The arguments a calculator or an operation tool takes from the request's arithmetic.

    Args:
        name, description, parameters: the tool (its JSON Schema ``parameters``).
        text: the request (or the clause of it this call serves).

    Returns:
        ``{argument: (value, words read)}``: the expression for a calculator's string argument
        (``{"expression": ("17 * 23", "17*23")}``), or the numbers of a one-operation tool
        (``{"a": (3, ...), "b": (1, ...)}``, ``{"numbers": ([1, 2, 3], ...)}``); None when the request
        holds no arithmetic this tool can take (the engine then fills it as any tool).
    """
    found = find(text)
    if not found:
        return None
    props = parameters.get("properties") or {}
    slot = expression_slot(name, description, parameters)
    if slot is not None:
        first = found[0]
        return {slot: (python_form(first.tree, _power_symbol(props[slot], first, description)), first.text)}
    op = tool_operation(name)
    if op is None:
        return None
    steps = [a if a.operands else a.first_step for a in found]
    match = next((a for a in steps if a is not None and a.operation == op and a.operands), None)
    return None if match is None else _operands_to_slots(props, parameters.get("required") or [], match, op)


def _operands_to_slots(props: dict, required: list, found: Arithmetic, op: str) -> dict[str, tuple[Any, str]] | None:
    numbers = found.operands
    lists = [k for k, s in props.items() if isinstance(s, dict) and s.get("type") == "array"]
    scalars = [k for k, s in props.items() if isinstance(s, dict) and s.get("type") in ("integer", "number")]
    if lists and not scalars and op in ("+", "*"):
        return {lists[0]: (numbers, found.text)}
    if op == "pct" and len(scalars) == 2:
        pct = next((k for k in scalars if _words_of(k) & _PERCENT_NAMES), None)
        if pct is not None:
            other = next(k for k in scalars if k != pct)
            return {pct: (numbers[0], found.text), other: (numbers[1], found.text)}
    wanted = [k for k in scalars if k in required] or scalars
    if len(wanted) != len(numbers) or any(props[k].get("type") == "integer" and not float(v).is_integer()
                                          for k, v in zip(wanted, numbers)):
        return None
    if len(wanted) == 2:
        first = [k for k in wanted if _words_of(k) & _FIRST]
        second = [k for k in wanted if _words_of(k) & _SECOND]
        if len(first) == 1 and len(second) == 1 and first != second:
            wanted = [first[0], second[0]]
    return {k: (int(v) if props[k].get("type") == "integer" else v, found.text) for k, v in zip(wanted, numbers)}


def _result_number(result: Any) -> Union[int, float, None]:
    if isinstance(result, bool):
        return None
    if isinstance(result, (int, float)):
        return result
    if isinstance(result, str):
        try:
            return _tidy(float(result.strip()))
        except ValueError:
            return None
    if isinstance(result, dict):
        numbers = [v for v in result.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        keyed = [result[k] for k in ("result", "value", "answer", "output", "sum", "product", "total")
                 if isinstance(result.get(k), (int, float)) and not isinstance(result.get(k), bool)]
        if keyed:
            return keyed[0]
        return numbers[0] if len(numbers) == 1 else None
    return None


def answer(name: str, args: dict, result: Any) -> str | None:
    """The sentence after a calculator's or an operation tool's result: ``"17 × 23 = 391"``, else None.

    The value said is the tool's (a model reports the result it got); the expression is the call's.
    ``result`` is the parsed tool message content (a number, a numeric string, ``{"result": 391}``).
    """
    value = _result_number(result)
    if value is None:
        return None
    shown = _shown_call(name, args)
    return None if shown is None else f"{shown} = {_fmt(value)}"


def _shown_call(name: str, args: dict) -> str | None:
    for k, v in args.items():
        if isinstance(v, str) and (_words_of(k) & _EXPRESSION_WORDS or _words_of(name) & _CALCULATOR_WORDS):
            found = find(v)
            if len(found) == 1 and found[0].end - found[0].start >= len(v.strip()) - 1:
                return found[0].shown
    op = tool_operation(name)
    if op is None:
        return None
    numbers = [v for v in args.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    lists = [v for v in args.values() if isinstance(v, list) and v and all(isinstance(x, (int, float)) for x in v)]
    if lists and not numbers and op in ("+", "*"):
        numbers = lists[0]
    if op in ("sqrt", "!") and len(numbers) == 1:
        return display_form(Fn("factorial" if op == "!" else op, Num(numbers[0])))
    if len(numbers) < 2 or op in ("sqrt", "!") or op != "+" and op != "*" and len(numbers) != 2:
        return None
    tree: Node = Num(numbers[0])
    for n in numbers[1:]:
        tree = Bin(op, tree if op != "pct" else Num(numbers[0]), Num(n))
    return display_form(tree)


def calls(tool: Any, text: str, filled: Any) -> list[tuple[dict, dict, list]] | None:
    """The calls of a calculator or operation tool for the request's arithmetic: one per computation.

    Args:
        tool: the :class:`~.wire.ToolSpec`.
        text: the request (or the clause this tool serves).
        filled: what the general filler read for this tool (an :class:`~.arguments.Filled`): its other
            arguments are kept, except numbers it took from inside the expression ("17" of "17*23" as
            a calculator's ``precision``).

    Returns:
        ``[(arguments, evidence, missing)]``, one per computation ("what is 3+4 and 5*6?": two calls of
        a calculator), or None when :func:`fill` finds nothing for this tool (the engine's calls stand).
    """
    found = find(text)
    got = fill(tool.name, tool.description, tool.parameters, text)
    if not got:
        return None
    from .arguments import Evidence

    base = dict(filled.arguments)
    evidence = dict(filled.evidence)
    for key, value in list(base.items()):
        e = evidence.get(key)
        if key not in got and isinstance(value, (int, float)) and e is not None and any(
                e.words and e.words in a.text for a in found):
            del base[key]
            evidence.pop(key, None)
    missing = [m for m in filled.missing if m not in got and m not in base]
    out = []
    for k, a in enumerate(found):
        one = got if len(found) == 1 else fill(tool.name, tool.description, tool.parameters, a.text)
        if not one:
            continue
        args, ev = dict(base), dict(evidence)
        for key, (value, words) in one.items():
            args[key], ev[key] = value, Evidence("arithmetic", words)
        out.append((args, ev, list(missing)))
    return out

def next_calls(tools: list, question: str, done: list[tuple[str, dict, Any]]) -> list[tuple[Any, dict]]:
    """The next call of a computation done step by step with one-operation tools, after the results so far.

    "What is (3+4)*2?" with ``add`` and ``multiply``: first ``add(3, 4)``; once it returned 7,
    ``multiply(7, 2)``. Each done call whose tool and numbers are the next step's is replaced by
    its result; what is left gives the next step.

    Args:
        tools: the offered tools (:class:`~.wire.ToolSpec`).
        question: the user's request.
        done: ``(tool name, arguments, parsed result)`` of the calls answered so far, in order.

    Returns:
        ``[(tool, arguments)]`` for the next step, or ``[]`` when the computation is complete, was not
        done with one-operation tools, or the next step has no tool.
    """
    found = find(question)
    if len(found) != 1 or found[0].operands:
        return []
    tree = found[0].tree
    by_op = {tool_operation(t.name): t for t in tools if tool_operation(t.name)}
    used = 0
    for name, args, result in done:
        step = _first_plain(tree)
        value = _result_number(result)
        if step is None or value is None or tool_operation(name) != Arithmetic(step, "", 0, 0).operation:
            continue
        tree = _replace(tree, step, Num(value))
        used += 1
    step = _first_plain(tree)
    if not used or step is None:
        return []
    task = Arithmetic(step, found[0].text, found[0].start, found[0].end)
    tool = by_op.get(task.operation)
    if tool is None:
        return []
    props = tool.parameters.get("properties") or {}
    got = _operands_to_slots(props, tool.parameters.get("required") or [], task, task.operation)
    return [(tool, {k: v for k, (v, _) in got.items()})] if got else []


def unserved(tools: list, text: str, planned: list[tuple[str, dict]]) -> list[tuple[Any, dict]]:
    """Calls for the computations of ``text`` that no planned call serves, when every planned call computes.

    "what's 7 + 5, and 20 - 8?" with ``add`` and ``subtract``: the plan holds ``add(7, 5)``; the
    subtraction needs ``subtract(20, 8)`` too. Returns ``[(tool, arguments)]`` (empty when the plan does
    anything else, or a computation has no one-operation tool).
    """
    found = find(text)
    if len(found) < 2 or not planned or not all(tool_operation(n) or any(
            isinstance(v, str) and find(v) for v in a.values()) for n, a in planned):
        return []
    by_op = {tool_operation(t.name): t for t in tools if tool_operation(t.name)}
    out = []
    for a in found:
        tool = by_op.get(a.operation)
        if tool is None or not a.operands:
            continue
        got = _operands_to_slots(tool.parameters.get("properties") or {}, tool.parameters.get("required") or [], a,
                                 a.operation)
        args = {k: v for k, (v, _) in got.items()} if got else None
        if args and not any(n == tool.name and all(b.get(k) == v for k, v in args.items()) for n, b in planned):
            out.append((tool, args))
    return out
