"""The finance agent's SQL runs under SQLite's own guards: read-only, an authorizer, limits, a timeout, caps."""
from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from course_lib import sql_guard as sg
from course_lib.examples import FINANCE_TABLES, create_finance_db, query_finance

NEVER_ENDS = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c"


@pytest.fixture
def db(tmp_path):
    (tmp_path / "secret-folder").mkdir()
    return create_finance_db(tmp_path / "secret-folder" / "finance.db")


def run(db, sql, **kw):
    return sg.read_only_query(db, sql, tables=FINANCE_TABLES, **kw)


def test_a_normal_report_query_works(db):
    rows = query_finance(db, "SELECT year, SUM(revenue) AS revenue FROM finance GROUP BY year")
    assert rows == [{"year": 2022, "revenue": 915.5}, {"year": 2023, "revenue": 1078.7},
                    {"year": 2024, "revenue": 1279.9}]


@pytest.mark.parametrize("sql,why", [
    ("DELETE FROM finance", "not authorized"),
    ("UPDATE finance SET revenue = 0", "not authorized"),
    ("DROP TABLE finance", "not authorized"),
    ("ATTACH 'other.db' AS other", "not authorized"),
    ("PRAGMA database_list", "not authorized"),
    ("SELECT * FROM pragma_database_list", "not authorized"),
    ("SELECT name, sql FROM sqlite_master", "prohibited"),
    ("SELECT randomblob(500000000)", "randomblob"),
    ("SELECT zeroblob(500000000)", "zeroblob"),
    ("SELECT load_extension('x')", "load_extension"),
])
def test_writes_metadata_and_huge_values_are_refused_before_running(db, sql, why):
    with pytest.raises(sg.SQLRefused, match=why) as caught:
        run(db, sql)
    assert isinstance(caught.value, sqlite3.DatabaseError)  # code that catches sqlite3.Error still works
    assert str(db.parent) not in str(caught.value)


def test_the_data_really_is_unchanged_and_the_connection_read_only(db):
    with pytest.raises(sg.SQLRefused):
        run(db, "DELETE FROM finance")
    assert len(run(db, "SELECT * FROM finance").rows) == 12


def test_a_statement_that_never_ends_stops_at_the_timeout(db):
    start = time.monotonic()
    with pytest.raises(sg.QueryCancelled, match="stopped after 0.3 s"):
        run(db, NEVER_ENDS, max_seconds=0.3)
    assert time.monotonic() - start < 3


def test_cancel_stops_a_running_statement_from_another_thread(db):
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    with pytest.raises(sg.QueryCancelled, match="cancelled"):
        run(db, NEVER_ENDS, cancel=stop, max_seconds=30)


def test_rows_and_bytes_are_capped_and_the_result_says_so(db):
    many = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 5000) SELECT n FROM c"
    result = run(db, many)
    assert len(result.rows) == sg.MAX_ROWS and result.truncated == f"{sg.MAX_ROWS} rows"
    wide = ("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 100) "
            "SELECT n, printf('%.50000c', 'x') AS pad FROM c")
    result = run(db, wide, max_bytes=120_000)
    assert len(result.rows) == 2 and result.truncated == "120000 bytes"
    assert run(db, "SELECT year FROM finance").truncated == ""


def test_a_value_longer_than_sqlites_limit_is_not_built(db):
    result = run(db, f"SELECT printf('%.{sg.MAX_VALUE_BYTES * 10}c', 'x') AS big")
    assert result.rows[0]["big"] is None or len(result.rows[0]["big"]) <= sg.MAX_VALUE_BYTES
    with pytest.raises(sg.SQLRefused, match="statement too long"):
        run(db, "SELECT '" + "x" * (sg.MAX_SQL_BYTES + 1) + "'")


def test_errors_never_carry_the_database_path(tmp_path):
    missing = tmp_path / "hidden-place" / "nothing.db"
    with pytest.raises(sg.SQLRefused) as caught:
        run(missing, "SELECT 1")
    assert "hidden-place" not in str(caught.value) and "unable to open" in str(caught.value)


def test_safe_message_is_cut_and_hides_paths():
    long = sqlite3.OperationalError("near " + "x" * 5000 + " /srv/data/finance.db: syntax error")
    text = sg.safe_message(long, hide=["/srv/data/finance.db"])
    assert len(text) == sg.MAX_ERROR_CHARS and text.endswith("…") and "/srv" not in text
    assert sg.safe_message(ValueError("a\n  b")) == "a b"
