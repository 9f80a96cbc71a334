"""Stock tickers: upper-case symbols beside stock words, cashtags, company names in both languages; one call
per ticker; never a word that merely stands where a ticker could (``ticker="多少"``).

Tools are our own (a price tool with a ticker and a currency enum, one with ``symbol``, one taking a list),
through the real ``openai`` client.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import tickers
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


PRICE = tool("get_stock_price", "Get the current price of a stock.", {
    "ticker": {"type": "string", "description": "Stock ticker symbol, e.g. AAPL"},
    "currency": {"type": "string", "enum": ["USD", "CNY", "EUR", "GBP", "JPY"]}}, ["ticker"])
QUOTE = tool("quote", "Latest market quote.", {"symbol": {"type": "string"}})
QUOTES = tool("get_quotes", "Quotes for several stocks at once.",
              {"tickers": {"type": "array", "items": {"type": "string"}}})
WEATHER = tool("get_weather", "Get the current weather for a city.", {"city": {"type": "string"}})


@pytest.mark.parametrize("text, symbols", [
    ("What are MSFT and GOOG trading at?", ["MSFT", "GOOG"]),
    ("NVDA 股价是多少，单位人民币", ["NVDA"]),
    ("$AMD price", ["AMD"]),                                     # a cashtag
    ("How are shares of ABNB and PLTR doing?", ["ABNB", "PLTR"]),
    ("查一下特斯拉的股价", ["TSLA"]),                                # company names, both languages
    ("What's the stock price of Apple and Microsoft?", ["AAPL", "MSFT"]),
])
def test_tickers_found(text, symbols):
    assert [t.symbol for t in tickers.find(text)] == symbols


@pytest.mark.parametrize("text", [
    "I want an apple pie recipe",             # a company's name without stock words
    "What is the weather in LA?", "Send the PDF to the CEO", "Is the API down?",
    "What is the price of a Fender American Professional II Stratocaster?",  # a numeral, not a ticker
])
def test_no_tickers_where_there_are_none(text):
    assert tickers.find(text) == ()


def test_a_call_per_ticker_and_the_currency_from_its_name(client):
    assert calls(client, "What are MSFT and GOOG trading at?", [PRICE]) == [
        ("get_stock_price", {"ticker": "MSFT"}), ("get_stock_price", {"ticker": "GOOG"})]
    assert calls(client, "NVDA 股价是多少，单位人民币", [PRICE]) == [
        ("get_stock_price", {"currency": "CNY", "ticker": "NVDA"})]   # never ticker="多少"
    assert calls(client, "What is the stock price of Apple in euros?", [PRICE]) == [
        ("get_stock_price", {"currency": "EUR", "ticker": "AAPL"})]
    assert calls(client, "$AMD price", [PRICE]) == [("get_stock_price", {"ticker": "AMD"})]  # "$" names no currency


def test_a_known_ticker_alone_asks_for_a_stock_tool(client):
    assert calls(client, "How is TSLA doing today?", [QUOTE, WEATHER]) == [("quote", {"symbol": "TSLA"})]
    assert calls(client, "查一下特斯拉的股价", [QUOTE, WEATHER]) == [("quote", {"symbol": "TSLA"})]


def test_a_list_argument_takes_every_ticker(client):
    assert calls(client, "What are MSFT and GOOG trading at?", [QUOTES]) == [("get_quotes", {"tickers": ["MSFT", "GOOG"]})]


def test_no_stock_call_for_other_requests(client):
    assert calls(client, "What is the weather in LA?", [PRICE, WEATHER]) == [("get_weather", {"city": "LA"})]
    assert isinstance(calls(client, "I want an apple pie recipe", [PRICE]), str)


def test_docstring_examples():
    import doctest

    result = doctest.testmod(tickers)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("text, symbols", [
    ("What is 0700.HK trading at?", ["0700.HK"]),              # a numeric code keeps its exchange suffix
    ("港股 0700.HK 股价", ["0700.HK"]),
    ("600519.SS 股价是多少", ["600519.SS"]),                    # never ticker="多少"
    ("000001.SZ 行情", ["000001.SZ"]),
    ("7203.T share price", ["7203.T"]),
    ("How is HSBA.L doing?", ["HSBA.L"]),                       # a suffixed symbol needs no stock word
    ("What's the price of RIO.AX and SHOP.TO?", ["RIO.AX", "SHOP.TO"]),
    ("BRK.B stock price", ["BRK.B"]),
    ("腾讯 0700.HK 今天怎么样", ["0700.HK"]),                    # the name beside its symbol is that symbol
])
def test_exchange_suffixes_are_kept(text, symbols):
    assert [t.symbol for t in tickers.find(text)] == symbols


@pytest.mark.parametrize("text", ["Born in the U.S.A.", "See section 2.F of the report"])
def test_no_suffixed_ticker_in_abbreviations_or_section_numbers(text):
    assert tickers.find(text) == ()


def test_suffixed_tickers_reach_the_tool_whole(client):
    assert calls(client, "Price of 0700.HK", [PRICE]) == [("get_stock_price", {"ticker": "0700.HK"})]
    assert calls(client, "How is 9988.HK doing today?", [QUOTE, WEATHER]) == [("quote", {"symbol": "9988.HK"})]
    assert calls(client, "Quotes for 0700.HK, VOD.L and 7203.T", [QUOTES]) == [
        ("get_quotes", {"tickers": ["0700.HK", "VOD.L", "7203.T"]})]
    assert calls(client, "腾讯 0700.HK 今天怎么样", [QUOTE, WEATHER]) == [("quote", {"symbol": "0700.HK"})]
