"""File requests: which number goes to which look-alike slot, and paths as values.

Tools are our own, shaped like the MCP reference filesystem server's (modelcontextprotocol/servers,
src/filesystem): ``read_text_file`` with ``head`` and ``tail``, ``move_file``.
"""
from __future__ import annotations

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

READ_LINES = tool("read_text_file", "Read a text file.", {
    "path": {"type": "string"},
    "tail": {"type": "number", "description": "If provided, returns only the last N lines of the file"},
    "head": {"type": "number", "description": "If provided, returns only the first N lines of the file"}}, ["path"])
FIND_MOVIES = tool("find_movies", "Find movies showing at a theater.", {
    "location": {"type": "string", "description": "City, e.g. Berkeley, CA"},
    "theater_name": {"type": "string"}}, ["location"])
BUY_TICKETS = tool("buy_movie_tickets", "Buy tickets for a movie showing at a theater.", {
    "location": {"type": "string", "description": "City, e.g. Berkeley, CA"},
    "number_of_tickets": {"type": "integer"}}, ["location", "number_of_tickets"])


def test_a_close_runner_up_that_needs_nothing_unsaid_is_still_called(client):
    got = calls(client, "Find movies showing in Berkeley, CA", [BUY_TICKETS, FIND_MOVIES])
    assert got == [("find_movies", {"location": "Berkeley, CA"})]


def test_first_and_last_n_lines_go_to_head_and_tail(client):
    assert calls(client, "Show me the first 10 lines of /var/log/app.log", [READ_LINES]) == [
        ("read_text_file", {"path": "/var/log/app.log", "head": 10})]
    assert calls(client, "Show me the last 25 lines of /var/log/app.log", [READ_LINES]) == [
        ("read_text_file", {"path": "/var/log/app.log", "tail": 25})]


MOVE = tool("move_file", "Move or rename a file.", {"source": {"type": "string"}, "destination": {"type": "string"}})


def test_a_lower_case_path_after_to_is_a_destination_not_a_verb(client):
    # "transfer $250 to svetlana" has a verb after "to"; "to /srv/ana/final.txt" has a path
    assert calls(client, "Move /srv/ana/draft.txt to /srv/ana/final.txt", [MOVE]) == [
        ("move_file", {"source": "/srv/ana/draft.txt", "destination": "/srv/ana/final.txt"})]
