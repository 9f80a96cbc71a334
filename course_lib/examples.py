"""The course's running examples (from the seeds), as deterministic offline tools.

* ``get_weather`` (seed 000 §2.1, seed 001 §19.1): the weather of a city from a fixed
  table, in English or Chinese names, so every run prints the same numbers
  (Shanghai / 上海 -> ``{"temp": 28, "humidity": 65}``, the seed's own values).
* ``WEATHER_TOOL``: its Chat Completions tool definition (JSON Schema parameters).
* ``WEB_SEARCH_SCHEMA`` / ``WEB_SEARCH_TOOL`` (seed 000 §2.2): Hermes' web search definition.
* ``search_wiki`` over ``WIKI_PAGES`` (seed 000 §7, "query the company's internal wiki"): the
  wiki of exercise 02 (its schema is the learner's to write) and of the MCP lessons.
* ``WEATHER_OPENAPI`` + ``weather_api`` (seed 000 §2.3): the weather as a REST API, to compare
  an OpenAPI operation with a tool.
* ``web_search`` / ``bing_search`` + ``BING_SEARCH_TOOL`` (seed 000 Q3, fallback) and
  ``OrderService.create_order`` + ``CREATE_ORDER_TOOL`` (idempotency): lesson 04.
* ``make_trip_tools`` (slow async trip-planner tools: weather, exchange rate, flights,
  activities, budget): lesson 06's orchestration.
* ``FINANCE_ROWS``, :func:`create_finance_db`, :func:`query_finance` (seed 000 §4.2): the
  SQLite ``finance`` table the A2A database agent queries (lesson 11).
* ``CURRENCY_RATES``, :func:`convert_currency`, :func:`parse_conversion`: exercise 11's
  currency-conversion agent.

Later lessons add theirs here (project manager).
"""
from __future__ import annotations

import re
import sqlite3
import threading
from contextlib import closing
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Sequence

from .sql_guard import MAX_SECONDS, QueryCancelled, read_only_query

#: Invented but fixed weather, keyed by English city name.
WEATHER_TABLE: dict[str, dict[str, Any]] = {
    "Shanghai": {"temp": 28, "humidity": 65}, "Beijing": {"temp": 22, "humidity": 40},
    "Tokyo": {"temp": 24, "humidity": 70}, "Paris": {"temp": 18, "humidity": 72},
    "London": {"temp": 15, "humidity": 80}, "New York": {"temp": 21, "humidity": 55},
    "Shenzhen": {"temp": 30, "humidity": 78}, "Singapore": {"temp": 31, "humidity": 84},
    "Berlin": {"temp": 16, "humidity": 60}, "Sydney": {"temp": 19, "humidity": 58},
}


@lru_cache(maxsize=1)
def _zh_to_en() -> dict[str, str]:
    # Imported on first use: the mock LLM package is heavy, and MCP servers started as stdio
    # child processes import this module only for the wiki (lesson 09).
    from .mock_llm.language import CITIES

    return {zh: en for en, zh in CITIES.items()}


WEATHER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather (temperature, humidity) for a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. 'Shanghai' or '上海'"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"},
            },
            "required": ["city"],
        },
    },
}


class UnknownCity(LookupError):
    """The weather table has no such city."""


def get_weather(city: str, unit: str = "celsius") -> dict[str, Any]:
    """The (invented, fixed) current weather of ``city``.

    Args:
        city: an English or Chinese city name, any case ("shanghai", "上海").
        unit: ``"celsius"`` (default) or ``"fahrenheit"``.

    Returns:
        ``{"temp": int, "humidity": int}`` (temperature in the unit asked, humidity in %).

    Raises:
        UnknownCity: the city is not in :data:`WEATHER_TABLE`.

    Example:
        >>> get_weather("上海")
        {'temp': 28, 'humidity': 65}
    """
    key = _zh_to_en().get(city.strip(), city.strip().title())
    if key not in WEATHER_TABLE:
        raise UnknownCity(f"no weather data for {city!r}; known cities: {', '.join(WEATHER_TABLE)}")
    data = dict(WEATHER_TABLE[key])
    if unit == "fahrenheit":
        data["temp"] = round(data["temp"] * 9 / 5 + 32)
    return data


# =========================================================================== web search (seed 000 §2.2)
#: Hermes' ``web_search`` schema as the seed quotes it (the bare ``{"name", "description",
#: "parameters"}`` shape a registry stores; wrap it as ``{"type": "function", "function": ...}``
#: for the Chat Completions API).
WEB_SEARCH_SCHEMA: dict[str, Any] = {
    "name": "web_search",
    "description": "Search the web for information. Returns up to 5 results...",
    "parameters": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The search query to look up on the web."},
            "limit": {"type": "integer", "description": "Maximum number of results.", "minimum": 1, "maximum": 100,
                      "default": 5},
        },
        "required": ["query"],
    },
}
WEB_SEARCH_TOOL: dict[str, Any] = {"type": "function", "function": WEB_SEARCH_SCHEMA}


# =========================================================================== the company wiki (seed 000 §7)
#: The spaces of the (invented) company wiki; exercise 02's ``space`` enum.
WIKI_SPACES: tuple[str, ...] = ("engineering", "product", "hr", "finance")

#: A small, fixed wiki so every search prints the same pages.
WIKI_PAGES: list[dict[str, str]] = [
    {"id": "eng-1", "space": "engineering", "title": "Deployment checklist",
     "text": "Before every production deployment: run the test suite, tag the release, announce it in #deploys."},
    {"id": "eng-2", "space": "engineering", "title": "VPN setup guide",
     "text": "Install the VPN client, import the company profile, sign in with single sign-on."},
    {"id": "eng-3", "space": "engineering", "title": "On-call onboarding",
     "text": "Onboarding for the on-call rotation: alerts, runbooks and escalation."},
    {"id": "prd-1", "space": "product", "title": "Roadmap 2026",
     "text": "Themes of the product roadmap: search, mobile app, integrations."},
    {"id": "prd-2", "space": "product", "title": "Writing a product spec",
     "text": "A product spec states the problem, the users, the success metrics and the scope."},
    {"id": "hr-1", "space": "hr", "title": "Onboarding checklist for new employees",
     "text": "Onboarding week one: laptop, accounts, buddy, first team lunch."},
    {"id": "hr-2", "space": "hr", "title": "Vacation and holiday policy",
     "text": "Employees get 25 vacation days a year; request them in the HR portal."},
    {"id": "hr-3", "space": "hr", "title": "Manager onboarding",
     "text": "Onboarding for new managers: one-on-ones, reviews, hiring."},
    {"id": "fin-1", "space": "finance", "title": "Travel and expense policy",
     "text": "Hotel costs up to 180 EUR per night; team dinners up to 40 EUR per person."},
    {"id": "fin-2", "space": "finance", "title": "报销流程 (expense reimbursement process)",
     "text": "报销流程：在财务系统提交发票，经理审批后五个工作日内到账。Submit receipts in the finance system."},
]


def _wiki_terms(text: str) -> set[str]:
    words = {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}
    grams = {run[i:i + 2] for run in re.findall(r"[\u3400-\u9fff]+", text) for i in range(max(1, len(run) - 1))}
    return words | grams


def search_wiki(query: str, space: str | None = None, limit: int = 5) -> list[dict[str, str]]:
    """Search the company wiki (:data:`WIKI_PAGES`), best match first.

    Pages are ranked by the words (and Chinese character pairs) they share with ``query``,
    titles counting double; ties keep the wiki's order. Deterministic and offline.

    Args:
        query: what to look for, in any words (English or Chinese).
        space: only this space (one of :data:`WIKI_SPACES`); None searches them all.
        limit: at most this many pages (1 to 20).

    Returns:
        ``[{"id", "space", "title", "snippet"}]`` (``snippet``: the page's first 80 characters).

    Raises:
        ValueError: an unknown space, or a limit outside 1..20.

    Example:
        >>> [p["title"] for p in search_wiki("onboarding", space="hr", limit=2)]
        ['Onboarding checklist for new employees', 'Manager onboarding']
    """
    if space is not None and space not in WIKI_SPACES:
        raise ValueError(f"unknown wiki space {space!r}; spaces: {', '.join(WIKI_SPACES)}")
    if not 1 <= limit <= 20:
        raise ValueError(f"limit must be between 1 and 20, got {limit}")
    terms = _wiki_terms(query)
    scored = []
    for i, page in enumerate(WIKI_PAGES):
        if space is not None and page["space"] != space:
            continue
        score = 2 * len(terms & _wiki_terms(page["title"])) + len(terms & _wiki_terms(page["text"]))
        if score:
            scored.append((-score, i, page))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [{"id": p["id"], "space": p["space"], "title": p["title"], "snippet": p["text"][:80]}
            for _, _, p in scored[:limit]]


# =========================================================================== the weather as a REST API (seed 000 §2.3)
#: The weather service as an OpenAPI 3.1 document: what a REST client developer reads.
WEATHER_OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Weather API", "version": "1.0.0"},
    "servers": [{"url": "https://weather.example/v1"}],
    "paths": {
        "/weather/{city}": {
            "get": {
                "operationId": "get_weather",
                "summary": "Get the current weather (temperature, humidity) for a city.",
                "parameters": [
                    {"name": "city", "in": "path", "required": True, "description": "City name, e.g. Shanghai",
                     "schema": {"type": "string"}},
                    {"name": "unit", "in": "query", "description": "Temperature unit",
                     "schema": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"}},
                    {"name": "Authorization", "in": "header", "required": True, "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "The weather", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Weather"}}}}},
            },
        },
    },
    "components": {"schemas": {"Weather": {"type": "object", "properties": {
        "temp": {"type": "integer"}, "humidity": {"type": "integer"}}}}},
}


def weather_api(request: Any) -> Any:
    """The REST service behind :data:`WEATHER_OPENAPI`, as an ``httpx.MockTransport`` handler (no network).

    ``GET /v1/weather/{city}?unit=...`` with an ``Authorization`` header -> 200 JSON
    ``{"temp", "humidity"}``; no credentials -> 401; unknown city -> 404.
    """
    import httpx
    from urllib.parse import unquote

    if not request.headers.get("authorization", "").startswith("Bearer "):
        return httpx.Response(401, json={"error": "missing bearer token"})
    m = re.fullmatch(r"/v1/weather/([^/]+)", request.url.path)
    if request.method != "GET" or not m:
        return httpx.Response(404, json={"error": f"no route {request.method} {request.url.path}"})
    try:
        data = get_weather(unquote(m.group(1)), request.url.params.get("unit", "celsius"))
    except UnknownCity as e:
        return httpx.Response(404, json={"error": str(e)})
    return httpx.Response(200, json=data)


# ------------------------------------------------------------------------------------------
# Lesson 04 (fault tolerance): the seed's web_search -> bing_search pair, and an order service
# whose create_order has a side effect (a card is charged), so a careless retry charges twice.

#: A tiny fixed "web" both search engines read from (query words -> pages).
SEARCH_PAGES: list[dict[str, str]] = [
    {"title": "Model Context Protocol: specification", "url": "https://modelcontextprotocol.io/specification",
     "snippet": "MCP standardises how applications give context and tools to LLMs."},
    {"title": "Function calling guide", "url": "https://platform.openai.com/docs/guides/function-calling",
     "snippet": "Tools are described with JSON Schema; the model answers with tool_calls."},
    {"title": "Agent2Agent (A2A) protocol", "url": "https://a2a-protocol.org/latest/specification/",
     "snippet": "A2A lets agents discover each other through Agent Cards and exchange Tasks."},
    {"title": "Exponential backoff and jitter", "url": "https://aws.amazon.com/blogs/architecture/"
     "exponential-backoff-and-jitter/", "snippet": "Full jitter spreads retries and avoids thundering herds."},
]


def _search(query: str, limit: int, engine: str) -> list[dict[str, str]]:
    words = {w for w in query.lower().replace("-", " ").split() if len(w) > 2}
    scored = [(sum(w in (p["title"] + " " + p["snippet"]).lower() for w in words), i, p)
              for i, p in enumerate(SEARCH_PAGES)]
    hits = [dict(p, engine=engine) for s, _, p in sorted(scored, key=lambda x: (-x[0], x[1])) if s > 0]
    return hits[:limit]


def web_search(query: str, limit: int = 5) -> list[dict[str, str]]:
    """Search the (fixed, offline) web with the primary engine (handler of :data:`WEB_SEARCH_TOOL`).

    Args:
        query: words to look for.
        limit: at most this many pages.

    Returns:
        ``[{"title", "url", "snippet", "engine": "web_search"}, ...]``, best first (may be empty).
    """
    return _search(query, limit, "web_search")


def bing_search(query: str, limit: int = 5) -> list[dict[str, str]]:
    """The backup engine of seed 000 Q3: same pages, ``"engine": "bing_search"``."""
    return _search(query, limit, "bing_search")


#: The backup of seed 000 Q3's fallback layer: the same parameters as :data:`WEB_SEARCH_TOOL`.
BING_SEARCH_TOOL: dict[str, Any] = {"type": "function", "function": {
    "name": "bing_search",
    "description": "Search the web with Bing (the backup search engine). Returns up to 5 results...",
    "parameters": WEB_SEARCH_SCHEMA["parameters"]}}


class OrderService:
    """A fake shop backend: ``create_order`` charges a card, then answers (lesson 04, idempotency).

    ``lose_responses(n)`` makes the next ``n`` answers get lost *after* the charge is made
    (the order exists, but the caller sees ``ConnectionError``): the classic case where a
    blind retry charges twice. With an ``idempotency_key`` the service remembers what each
    key did and answers a repeat with the same order, charging nothing (seed 000 Q3 layer 4).

    Attributes:
        charges: every card charge, ``{"order_id", "item", "amount"}`` (what the customer pays).
        prices: unit prices in yuan.
    """

    def __init__(self, prices: dict[str, float] | None = None) -> None:
        from .resilience import IdempotencyStore

        self.prices = prices or {"coffee beans": 68.0, "mug": 35.0, "kettle": 199.0}
        self.charges: list[dict[str, Any]] = []
        self.keys = IdempotencyStore()
        self._lose = 0

    def lose_responses(self, n: int = 1) -> "OrderService":
        """The next ``n`` orders succeed but their answers are lost on the way back."""
        self._lose = n
        return self

    def create_order(self, item: str, quantity: int = 1, idempotency_key: str | None = None) -> dict[str, Any]:
        """Order ``quantity`` × ``item``; charges the card once per order (or once per key).

        Returns:
            ``{"order_id", "item", "quantity", "amount"}`` (amount in yuan).

        Raises:
            KeyError: unknown item. ConnectionError: the answer was lost (the order was made!).
        """
        if item not in self.prices:
            raise KeyError(f"unknown item {item!r}; we sell {', '.join(self.prices)}")

        def charge() -> dict[str, Any]:
            order = {"order_id": f"ord-{len(self.charges) + 1:04d}", "item": item, "quantity": quantity,
                     "amount": self.prices[item] * quantity}
            self.charges.append({"order_id": order["order_id"], "item": item, "amount": order["amount"]})
            return order

        order = self.keys.run(idempotency_key, charge) if idempotency_key else charge()
        if self._lose > 0:
            self._lose -= 1
            raise ConnectionError("connection reset while reading the response (the order went through)")
        return order

    def __repr__(self) -> str:
        total = sum(c["amount"] for c in self.charges)
        return f"OrderService({len(self.charges)} charges, total {total:g} yuan)"


CREATE_ORDER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "create_order",
        "description": "Buy an item from the shop: creates an order and charges the customer's card.",
        "parameters": {
            "type": "object",
            "properties": {
                "item": {"type": "string", "enum": ["coffee beans", "mug", "kettle"]},
                "quantity": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1},
            },
            "required": ["item"],
        },
    },
}


# ------------------------------------------------------------------------------------------
# Lesson 06 (orchestration): a trip planner whose tools wait on a slow "network", so that
# running them one after another or side by side makes a visible difference.

#: Seconds each trip tool waits before answering (scaled by ``make_trip_tools(scale=...)``).
TRIP_LATENCY: dict[str, float] = {"get_weather": 0.3, "get_exchange_rate": 0.2, "search_flights": 0.4,
                                  "find_activities": 0.25, "estimate_budget": 0.05}
#: Invented but fixed exchange rates (units of ``quote`` per 1 ``base``).
EXCHANGE_RATES: dict[tuple[str, str], float] = {("CNY", "JPY"): 21.0, ("CNY", "EUR"): 0.13, ("CNY", "USD"): 0.14,
                                                ("CNY", "GBP"): 0.11, ("EUR", "CNY"): 7.7, ("USD", "CNY"): 7.2}
FLIGHTS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("Shanghai", "Tokyo"): [{"flight": "MU523", "price_cny": 1850, "hours": 3.0},
                            {"flight": "NH968", "price_cny": 2300, "hours": 2.9}],
    ("Shanghai", "Paris"): [{"flight": "AF117", "price_cny": 5600, "hours": 13.5}],
    ("Beijing", "London"): [{"flight": "CA937", "price_cny": 6100, "hours": 11.8}],
}
ACTIVITIES: dict[str, dict[str, list[str]]] = {
    "Tokyo": {"indoor": ["teamLab Planets", "Tokyo National Museum"], "outdoor": ["Ueno Park", "Meiji Shrine"]},
    "Paris": {"indoor": ["the Louvre", "Musée d'Orsay"], "outdoor": ["Jardin du Luxembourg", "a Seine walk"]},
    "Beijing": {"indoor": ["the Palace Museum halls", "the National Museum"], "outdoor": ["the Great Wall",
                                                                                       "Beihai Park"]},
    "London": {"indoor": ["the British Museum", "Tate Modern"], "outdoor": ["Hyde Park", "a Thames walk"]},
}


def make_trip_tools(*, scale: float = 1.0, sleep: Any = None) -> dict[str, Any]:
    """The trip planner's tools as ``async`` functions that wait like network calls (lesson 06).

    Args:
        scale: multiply every latency of :data:`TRIP_LATENCY` (0 = instant, for tests).
        sleep: the coroutine function used to wait (default ``asyncio.sleep``).

    Returns:
        ``{name: async function}`` for ``get_weather``, ``get_exchange_rate``, ``search_flights``,
        ``find_activities`` and ``estimate_budget``; each has a docstring and type hints, so a
        registry derives its schema.
    """
    import asyncio

    wait = sleep or asyncio.sleep

    async def pause(name: str) -> None:
        await wait(TRIP_LATENCY[name] * scale)

    async def get_weather_slow(city: str) -> dict[str, Any]:
        """Get the current weather (temperature, humidity) for a city.

        Args:
            city: City name, e.g. "Tokyo".
        """
        await pause("get_weather")
        return get_weather(city)

    async def get_exchange_rate(base: str, quote: str) -> dict[str, Any]:
        """Get the exchange rate between two currencies (how many quote units one base unit buys).

        Args:
            base: ISO currency code to convert from, e.g. "CNY".
            quote: ISO currency code to convert to, e.g. "JPY".
        """
        await pause("get_exchange_rate")
        rate = EXCHANGE_RATES.get((base.upper(), quote.upper()))
        if rate is None:
            raise LookupError(f"no rate for {base}->{quote}; known: {', '.join(a + '->' + b for a, b in EXCHANGE_RATES)}")
        return {"base": base.upper(), "quote": quote.upper(), "rate": rate}

    async def search_flights(origin: str, destination: str) -> list[dict[str, Any]]:
        """Search flights between two cities, cheapest first.

        Args:
            origin: departure city, e.g. "Shanghai".
            destination: arrival city, e.g. "Tokyo".
        """
        await pause("search_flights")
        return sorted(FLIGHTS.get((origin.title(), destination.title()), []), key=lambda f: f["price_cny"])

    async def find_activities(city: str, kind: Literal["indoor", "outdoor"]) -> list[str]:
        """Suggest things to do in a city.

        Args:
            city: the city, e.g. "Tokyo".
            kind: "indoor" (for rainy or humid days) or "outdoor".
        """
        await pause("find_activities")
        return ACTIVITIES.get(city.title(), {}).get(kind, [])

    async def estimate_budget(flight_price_cny: float, nights: int, rate: float) -> dict[str, Any]:
        """Estimate the trip budget: the flight plus 600 yuan a night, in yuan and in the local currency.

        Args:
            flight_price_cny: the flight price in yuan.
            nights: how many nights.
            rate: local currency units per yuan.
        """
        await pause("estimate_budget")
        total = flight_price_cny + 600 * nights
        return {"total_cny": round(total), "total_local": round(total * rate)}

    get_weather_slow.__name__ = get_weather_slow.__qualname__ = "get_weather"
    tools = [get_weather_slow, get_exchange_rate, search_flights, find_activities, estimate_budget]
    return {fn.__name__: fn for fn in tools}


# --------------------------------------------------------------------------- finance database
# Seed 000 §4.2: an orchestrator asks a database agent "查公司2024年营收数据" (get the company's
# 2024 revenue) and the agent runs ``SELECT ... FROM finance``. The numbers are invented but
# fixed, so every run prints the same totals.

#: ``(year, quarter, revenue, net_profit)``; money in millions of US dollars.
FINANCE_ROWS: list[tuple[int, int, float, float]] = [
    (2022, 1, 210.5, 18.2), (2022, 2, 225.0, 20.1), (2022, 3, 231.8, 21.4), (2022, 4, 248.2, 24.0),
    (2023, 1, 252.1, 23.5), (2023, 2, 266.4, 26.8), (2023, 3, 270.9, 27.2), (2023, 4, 289.3, 31.6),
    (2024, 1, 301.2, 30.9), (2024, 2, 315.7, 33.4), (2024, 3, 322.4, 35.0), (2024, 4, 340.6, 38.7),
]
FINANCE_UNIT = "million USD"
FINANCE_SCHEMA = """CREATE TABLE finance (
    year INTEGER NOT NULL,
    quarter INTEGER NOT NULL CHECK (quarter BETWEEN 1 AND 4),
    revenue REAL NOT NULL,      -- million USD
    net_profit REAL NOT NULL,   -- million USD
    PRIMARY KEY (year, quarter)
)"""


#: The tables the finance agent's SQL may read.
FINANCE_TABLES = ("finance",)


def create_finance_db(path: str | Path) -> Path:
    """Create (or re-create) the SQLite finance database of the A2A lessons at ``path``.

    Args:
        path: the database file to write (its folder must exist). An existing file is replaced,
            so re-running a notebook cell gives the same database.

    Returns:
        The path, as a :class:`~pathlib.Path`.

    Example:
        >>> import tempfile, pathlib
        >>> db = create_finance_db(pathlib.Path(tempfile.mkdtemp()) / "finance.db")
        >>> query_finance(db, "SELECT SUM(revenue) AS total FROM finance WHERE year = ?", (2024,))
        [{'total': 1279.9}]

    Taught in lesson 11 (seed 000 §4.2).
    """
    path = Path(path)
    path.unlink(missing_ok=True)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(FINANCE_SCHEMA)
        conn.executemany("INSERT INTO finance VALUES (?, ?, ?, ?)", FINANCE_ROWS)
    return path


def query_finance(path: str | Path, sql: str, params: Sequence[Any] = (), *,
                  cancel: threading.Event | None = None, max_seconds: float = MAX_SECONDS) -> list[dict[str, Any]]:
    """Run one read-only SQL statement on the finance database; rows as dicts.

    Every guard of :mod:`course_lib.sql_guard` applies: the connection is read-only (even a
    ``DROP TABLE`` sent by another agent cannot change the data), an authorizer allows only
    ``SELECT`` on table ``finance`` and harmless functions, a progress handler stops the statement
    when ``cancel`` is set or after ``max_seconds``, and at most
    :data:`~course_lib.sql_guard.MAX_ROWS` rows come back.

    Args:
        path: the database made by :func:`create_finance_db`.
        sql: one SQL statement (SQLite refuses several at once).
        params: values for the ``?`` placeholders.
        cancel: set this event (from any thread) to stop the query.
        max_seconds: the statement timeout in seconds.

    Returns:
        One dict per row, keyed by column name; money values rounded to 0.1 (float sums are
        not exact: ``301.2 + 315.7`` is ``616.9000000000001``).

    Raises:
        QueryCancelled: ``cancel`` was set or ``max_seconds`` passed.
        course_lib.sql_guard.SQLRefused: (a ``sqlite3.Error``) the SQL is invalid (``no such column:
            revnue``), writes, reads what it may not, or the file is missing.

    Taught in lesson 11.
    """
    return read_only_query(path, sql, params, tables=FINANCE_TABLES, cancel=cancel, max_seconds=max_seconds).rows


# --------------------------------------------------------------------------- currency conversion
# Exercise 11's skill: an A2A agent that converts money. Fixed (invented) rates keep answers exact.

#: Units of each currency per 1 US dollar.
CURRENCY_RATES: dict[str, float] = {"USD": 1.0, "EUR": 0.92, "GBP": 0.79, "CNY": 7.24, "JPY": 151.3}
_CURRENCY_NAMES = {"dollar": "USD", "dollars": "USD", "美元": "USD", "euro": "EUR", "euros": "EUR", "欧元": "EUR",
                   "pound": "GBP", "pounds": "GBP", "英镑": "GBP", "yuan": "CNY", "rmb": "CNY", "人民币": "CNY",
                   "yen": "JPY", "日元": "JPY"}


class UnknownCurrency(LookupError):
    """A currency code the rate table does not have."""


def convert_currency(amount: float, source: str, target: str) -> float:
    """Convert ``amount`` from ``source`` to ``target`` at :data:`CURRENCY_RATES`, rounded to 0.01.

    Args:
        amount: the sum in ``source`` units.
        source, target: ISO 4217 codes, any case (``"usd"``, ``"EUR"``).

    Raises:
        UnknownCurrency: a code not in :data:`CURRENCY_RATES`.

    Example:
        >>> convert_currency(100, "USD", "EUR")
        92.0
        >>> convert_currency(250, "cny", "jpy")
        5224.45

    Taught in exercise 11.
    """
    src, dst = source.upper(), target.upper()
    for code in (src, dst):
        if code not in CURRENCY_RATES:
            raise UnknownCurrency(f"unknown currency {code!r}; known: {', '.join(CURRENCY_RATES)}")
    return round(amount / CURRENCY_RATES[src] * CURRENCY_RATES[dst], 2)


def parse_conversion(text: str) -> tuple[float | None, str | None, str | None]:
    """Read ``(amount, source, target)`` from a request such as ``"Convert 100 USD to EUR"``.

    Currency codes are three capital letters (or a name: ``euros``, ``人民币``); the first one after
    the amount is the source, the next one the target. Missing parts are None, so an agent can ask
    for them (``"Convert 100 USD"`` → ``(100.0, "USD", None)``). Several texts joined with spaces
    work too: ``"Convert 100 USD EUR"``.

    Example:
        >>> parse_conversion("Convert 100 USD to EUR")
        (100.0, 'USD', 'EUR')
        >>> parse_conversion("把250人民币换成日元")
        (250.0, 'CNY', 'JPY')
        >>> parse_conversion("how much is 12.5 XYZ in euros?")
        (12.5, 'XYZ', 'EUR')

    Taught in exercise 11.
    """
    amount = re.search(r"\d+(?:\.\d+)?", text)
    names = "|".join(sorted(map(re.escape, _CURRENCY_NAMES), key=len, reverse=True))
    codes = [_CURRENCY_NAMES.get(m.lower(), _CURRENCY_NAMES.get(m, m))
             for m in re.findall(rf"\b[A-Z]{{3}}\b|(?i:\b(?:{names})\b)|{names}", text)]
    return (float(amount.group()) if amount else None, codes[0] if codes else None,
            codes[1] if len(codes) > 1 else None)
