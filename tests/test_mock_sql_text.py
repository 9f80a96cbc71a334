"""SQL statements typed in a request go to a tool's SQL argument as written, without the words around them."""
from __future__ import annotations

import pytest

from course_lib.mock_llm import sql_text


@pytest.mark.parametrize("text, statements", [
    ("Run SELECT * FROM orders LIMIT 5", ("SELECT * FROM orders LIMIT 5",)),
    ("please execute: select name from users where id = 3;", ("select name from users where id = 3;",)),
    ("DROP TABLE users.", ("DROP TABLE users",)),
    ("Please select the best option from the list", ()),         # prose, not SQL
    ("I want to delete from my list the old items", ()),
])
def test_statements_found(text, statements):
    assert sql_text.find(text) == statements


def test_which_argument_takes_sql():
    params = {"type": "object", "properties": {"query": {"type": "string"}}}
    assert sql_text.sql_slot("read_query", "Execute a SELECT query on the SQLite database", params) == "query"
    assert sql_text.sql_slot("search_web", "Search the web", params) is None   # a search query is no SQL
    assert sql_text.sql_slot("run", "Run it", {"properties": {"sql": {"type": "string"}}}) == "sql"


def test_docstring_examples():
    import doctest

    result = doctest.testmod(sql_text)
    assert result.attempted > 0 and result.failed == 0
