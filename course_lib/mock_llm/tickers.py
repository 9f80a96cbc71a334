"""Stock tickers in a request: "What are MSFT and GOOG trading at?", "$TSLA", "NVDA 股价是多少", 特斯拉的股价.

A model reads an upper-case word of one to five letters beside stock words ("price", "trading at",
"shares", 股价) as a ticker symbol, knows the tickers of well-known companies by their names in
both languages (Tesla, 特斯拉 -> TSLA), and never takes a word that merely stands where a ticker
could ("多少", "what") for one. This module finds tickers (:func:`find`), tells tool choice that a
request about them is about stocks (:func:`concepts`), and fills a tool's ticker argument: one call
per ticker for a tool that takes one, a list for a tool that takes several (:func:`calls`).

The words that make a ticker are data: :data:`STOCK_WORDS`, :data:`NOT_TICKERS` here, company
names in :data:`.gazetteer.TICKERS`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import gazetteer as gz
from . import language as lang
from ..package_data import load_json

#: Words that make the text about stocks: an upper-case word beside them is a ticker. (The lookahead of
#: their first letters changes no match; it spares trying every word at every other word's start.)
STOCK_WORDS = re.compile(
    r"\b(?=[bcdeimnopqstw])(?:stocks?|shares?|ticker|tickers|symbols?|trading|trades?|traded|quotes?|market cap|nasdaq|nyse|"
    r"equit(?:y|ies)|dividends?|earnings|portfolio|invest(?:ed|ing|ment|ments)?|price|prices|priced|worth|"
    r"closing|opening|bullish|bearish)\b|股价|股票|股份|行情|市值|报价|美股|港股|股|涨|跌|收盘|开盘", re.I)
#: Upper-case words that are no tickers (acronyms, codes, units), whatever stands around them.
NOT_TICKERS = frozenset("""I A AN OK US USA UK EU UN UAE CEO CFO CTO COO AI ML API SDK ETF ETFS IPO ESG GDP CPI FAQ PDF CSV
    JSON XML HTML URL UTC GMT EST EDT PST PDT CET PM AM ID TV PC IT HR PR QA VS FYI ASAP NYSE NASDAQ SEC FX EPS ROI YTD
    Q1 Q2 Q3 Q4 H1 H2 FY ISO RMB KM KG GB MB TB KB CM MM LB OZ MPH KPH NYC LA SF DC NY CA TX AND OR THE WHAT HOW WHY
    WHO WHEN IS ARE OF TO IN ON AT FOR BY DOW SP SPX NAV P E PE II III IV VI VII VIII IX XI XII XX LLC INC LTD CORP
    PLC AG SA NV CO""".split()) | frozenset(gz.CURRENCIES.values())
#: Tickers known by themselves (a company the gazetteer names, or a share class): no stock word needed.
KNOWN = frozenset(gz.TICKERS.values()) | frozenset("GOOG BRK.B MSFT AAPL NVDA TSLA AMZN META NFLX".split())
#: Exchange suffixes ("0700.HK", "VOD.L", "600519.SS"): ``course_lib/data/exchange_suffixes.json``.
EXCHANGE_SUFFIXES = frozenset(load_json("exchange_suffixes.json")["suffixes"])
_SUFFIX = "|".join(sorted(EXCHANGE_SUFFIXES, key=len, reverse=True))
#: A symbol: 1-5 capitals with a share class or an exchange suffix ("BRK.B", "VOD.L"), or a numeric code with its
#: exchange suffix ("0700.HK", "7203.T"); a suffix is kept, it is part of the symbol.
_TOKEN = re.compile(r"(?<![A-Za-z0-9$.])(\$)?([A-Z]{1,5}(?:\.(?:%s|[A-Z]))?|\d{3,6}\.(?:%s))(?![A-Za-z0-9])"
                    % (_SUFFIX, _SUFFIX))
_ZH_NAMES = sorted((k for k in gz.TICKERS if lang.is_chinese(k)), key=len, reverse=True)
_ZH_RX = re.compile("|".join(map(re.escape, _ZH_NAMES))) if _ZH_NAMES else None
_EN_NAMES = re.compile(r"(?<![\w-])(" + "|".join(sorted((re.escape(k) for k in gz.TICKERS if not lang.is_chinese(k)),
                                                        key=len, reverse=True)) + r")(?![\w-])", re.I)
#: Slot words that ask for a ticker.
_SLOT_WORDS = frozenset({"ticker", "tickers", "symbol", "symbols", "stock", "stocks"})
_SLOT_DESC = re.compile(r"\bticker\b|\bstock symbol\b|\bsymbol of the (?:stock|company|share)|股票代码", re.I)


@dataclass(frozen=True)
class Ticker:
    """One ticker a request names: its ``symbol``, the words as written and their span."""

    symbol: str
    text: str
    start: int
    end: int


@lru_cache(maxsize=2048)
def find(text: str, for_ticker_slot: bool = False) -> tuple[Ticker, ...]:
    """The tickers ``text`` names, in order, each once.

    An upper-case word counts when it is a known ticker, a cashtag (``$TSLA``), or any word of
    1-5 capitals (two at least, not in :data:`NOT_TICKERS`) in a text with stock words; with
    ``for_ticker_slot`` (the tool asks for a ticker) the stock words are not needed. Company
    names become their tickers: only with stock words or for a ticker slot ("apple pie" is no AAPL).

    Example:
        >>> [t.symbol for t in find("What are MSFT and GOOG trading at?")]
        ['MSFT', 'GOOG']
        >>> [t.symbol for t in find("NVDA 股价是多少，单位人民币")]
        ['NVDA']
    """
    stocky = bool(STOCK_WORDS.search(text))
    out: list[Ticker] = []
    for m in _TOKEN.finditer(text):
        sym = m.group(2)
        cashtag = m.group(1) is not None
        suffixed = _exchange_suffixed(sym)
        if (sym in NOT_TICKERS or len(sym) == 1) and not cashtag:
            continue
        if cashtag or sym in KNOWN or suffixed or (stocky or for_ticker_slot) and not _sentence_word(text, m.start(2)):
            out.append(Ticker(sym, m.group(0), m.start(), m.end()))
    if stocky or for_ticker_slot:
        for rx in (_EN_NAMES, _ZH_RX):
            for m in rx.finditer(text) if rx is not None else ():
                if _beside_a_symbol(text, m.start(), m.end(), out):  # "腾讯 0700.HK": the symbol as written
                    continue
                out.append(Ticker(gz.TICKERS[m.group(0).lower()] if m.group(0).isascii() else gz.TICKERS[m.group(0)],
                                  m.group(0), m.start(), m.end()))
    out.sort(key=lambda t: t.start)
    seen: set[str] = set()
    return tuple(t for t in out if not (t.symbol in seen or seen.add(t.symbol)))


def _beside_a_symbol(text: str, start: int, end: int, symbols: list[Ticker]) -> bool:
    """A company name right beside an exchange-suffixed symbol ("Tencent (0700.HK)", "0700.HK 腾讯") names it."""
    for t in symbols:
        if _exchange_suffixed(t.symbol) and (re.fullmatch(r"[\s(（:：]*", text[end:t.start])
                                              or re.fullmatch(r"[\s)）]*", text[t.end:start])):
            return True
    return False


def _exchange_suffixed(sym: str) -> bool:
    """A symbol with an exchange suffix that makes it a ticker by itself: "0700.HK", "VOD.L" (never "U.S")."""
    head, dot, suffix = sym.partition(".")
    return bool(dot) and suffix in EXCHANGE_SUFFIXES and (head.isdigit() or len(head) >= 2)


def _sentence_word(text: str, pos: int) -> bool:
    """An all-capitals word that is a shouted English word ("PLEASE", "WHAT") rather than a symbol."""
    word = re.match(r"[A-Z]+", text[pos:]).group(0)
    return len(word) >= 4 and word.lower() in lang.STOPWORDS


@lru_cache(maxsize=1024)
def concepts(text: str) -> frozenset[str]:
    """Concept stems for tool choice: a request naming tickers is about stocks (empty when it names none)."""
    tickers = [t for t in find(text) if not lang.is_chinese(t.text) or STOCK_WORDS.search(text)]
    if not tickers:
        return frozenset()
    return frozenset(lang.stem(w) for w in ("stock", "ticker", "symbol", "share", "equity", "quote"))


def ticker_slot(parameters: dict) -> tuple[str, bool] | None:
    """``(name, takes a list)`` of the argument that asks for a ticker, else None."""
    for name, spec in (parameters.get("properties") or {}).items():
        if not isinstance(spec, dict) or spec.get("enum"):
            continue
        words = set(lang.split_identifier(name))
        is_list = spec.get("type") == "array"
        if spec.get("type", "string") not in ("string", "array"):
            continue
        if words & _SLOT_WORDS or _SLOT_DESC.search(str(spec.get("description", ""))):
            return name, is_list
    return None


def calls(tool: Any, text: str, filled: Any) -> list[tuple[dict, dict, list]] | None:
    """The calls of a tool with a ticker argument: one per ticker (a list argument takes them all).

    Args:
        tool: the :class:`~.wire.ToolSpec`; text: the request (or its clause); filled: what the
            general filler read (an :class:`~.arguments.Filled`), whose other arguments are kept.

    Returns:
        ``[(arguments, evidence, missing)]``, or None when the tool takes no ticker or the text names
        none (the engine's calls stand).
    """
    slot = ticker_slot(tool.parameters)
    if slot is None:
        return None
    name, is_list = slot
    found = find(text, True)
    if not found:
        return None
    from .arguments import Evidence

    if filled.spread.get(name):  # the engine pairs the values up ("... respectively"): they only become tickers
        _as_tickers(filled, name)
        return None
    inside = [(t.start, t.end) for t in found]
    def read_from_a_ticker(key: str) -> bool:  # "$AMD" is no US dollar, "NVDA" no name
        e = filled.evidence.get(key)
        words = getattr(e, "words", "") or ""
        return bool(words) and any(words in text[a:b] for a, b in inside)

    base = {k: v for k, v in filled.arguments.items() if k != name and not read_from_a_ticker(k)}
    evidence = {k: filled.evidence[k] for k in base if k in filled.evidence}
    missing = [m for m in filled.missing if m != name]
    if is_list:
        return [({**base, name: [t.symbol for t in found]}, {**evidence, name: Evidence("tickers", ", ".join(
            t.text for t in found))}, missing)]
    return [({**base, name: t.symbol}, {**evidence, name: Evidence("ticker", t.text)}, list(missing)) for t in found]


def _as_tickers(filled: Any, name: str) -> None:
    """The values the general filler read for ``name`` as tickers ("Apple Inc." -> AAPL), where they name one."""
    def symbol(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        hits = find(value, True)
        return hits[0].symbol if len(hits) == 1 else value

    if name in filled.arguments:
        filled.arguments[name] = symbol(filled.arguments[name])
    filled.spread[name] = [(symbol(v), e, pos) for v, e, pos in filled.spread[name]]
