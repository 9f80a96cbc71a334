"""Near-twin tools (issue 13): two tools about the same thing that only their action tells apart, a player and a
finder of films, a branch switcher and a branch maker. A model reads the request's verb and the number of its
object; so does the mock. Our own tool definitions, written as a newcomer writes such pairs, through the openai SDK."""
from __future__ import annotations

import pytest

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm import language as lang
from course_lib.mock_llm.choosing import opening_verbs
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

FILMS = [
    tool("Cinema_WatchFilm", "Streams one film right away, with subtitles if asked",
         {"title": {"type": "string", "description": "Title of the film"},
          "subtitles": {"type": "string", "enum": ["English", "French", "none"], "default": "none"}},
         required=["title"]),
    tool("Cinema_FindFilms", "Explore films by genre and cast",
         {"genre": {"type": "string", "enum": ["Comedy", "Horror", "Drama", "Western"]},
          "cast": {"type": "string", "description": "An actor in the film", "default": "any"}},
         required=["genre"]),
]
BRANCHES = [
    tool("repo_switch", "Switches the working tree to another branch",
         {"repo": {"type": "string", "description": "Path of the repository"},
          "branch_name": {"type": "string", "description": "The branch to check out"}}),
    tool("repo_new_branch", "Creates a new branch, from the current one unless told",
         {"repo": {"type": "string", "description": "Path of the repository"},
          "branch_name": {"type": "string", "description": "Name of the new branch"},
          "from_branch": {"type": "string", "description": "Where the branch starts"}},
         required=["repo", "branch_name"]),
]


def test_a_singular_and_its_plural_are_one_word():
    """'movie' and 'movies' were two stems ('movi', 'movy'): a film player named with the singular matched a
    request in the plural no better than any tool, and a finder named with the plural no request in the singular."""
    assert lang.stem("movie") == lang.stem("movies") == "movy"
    assert lang.stem("cookie") == lang.stem("cookies")
    assert lang.stem("city") == lang.stem("cities")


def test_the_verbs_a_request_opens_with():
    assert opening_verbs("Please switch to develop, then create a branch called x") >= {"switch", "creat"}
    assert "find" in opening_verbs("Could you find me a western?")


@pytest.mark.parametrize("text, want", [
    ("switch to the develop branch in ~/code/shop", [("repo_switch", {"repo": "~/code/shop", "branch_name": "develop"})]),
    ("Please switch /srv/site to the staging branch", [("repo_switch", {"repo": "/srv/site", "branch_name": "staging"})]),
    ("Create a new branch called hotfix in /srv/site",
     [("repo_new_branch", {"repo": "/srv/site", "branch_name": "hotfix"})]),
])
def test_switching_to_a_branch_is_not_making_one(client, text, want):
    """The switcher's name says no 'branch', its description opens with the verb: the verb the request opens with
    weighs as the branch maker's name words do."""
    assert calls(client, text, BRANCHES) == want


@pytest.mark.parametrize("text, want", [
    ("Watch the film Heat with French subtitles", [("Cinema_WatchFilm", {"title": "Heat", "subtitles": "French"})]),
    ("Find me some horror films", [("Cinema_FindFilms", {"genre": "Horror"})]),
    ("Can you find a film for me? A western would be nice", [("Cinema_FindFilms", {"genre": "Western"})]),
])
def test_watching_one_film_is_not_looking_for_films(client, text, want):
    assert calls(client, text, FILMS) == want


def test_a_finder_that_cannot_be_filled_does_not_become_the_player(client):
    """'find kung fu films' names no genre the finder knows: the player, complete with a title the request never
    calls a title, is no better reading (nobody asked to watch); the mock asks for the genre."""
    got = calls(client, "Please go online and find kung fu films with Jackie Chan", FILMS)
    assert isinstance(got, str) and "genre" in got


def test_a_name_given_then_its_parent_folder_make_one_path():
    """'make a new directory called backups' -> where? -> 'in /Users/alice': the path is /Users/alice/backups, as
    when both are said at once; 'make' asks the tool that creates."""
    mkdir = tool("create_directory", "Create a new directory or ensure a directory exists",
                 {"path": {"type": "string"}})
    ls = tool("list_directory", "Get a detailed listing of all files and directories in a path", {"path": {"type": "string"}})
    messages = [{"role": "user", "content": "make a new directory called backups"},
                {"role": "assistant", "content": "Where should I create it? Please give me the parent path."},
                {"role": "user", "content": "in /Users/alice"}]
    msg = MockLLM().client().chat.completions.create(model="m", messages=messages, tools=[mkdir, ls]).choices[0].message
    assert [(c.function.name, c.function.arguments) for c in msg.tool_calls] == [
        ("create_directory", '{"path": "/Users/alice/backups"}')]


@pytest.mark.parametrize("text, want", [
    ("Find me some horror films featuring Vincent Price", {"genre": "Horror", "cast": "Vincent Price"}),
    ("Find western films starring Clint Eastwood", {"genre": "Western", "cast": "Clint Eastwood"}),
    ("Find a drama film with the actress Meryl Streep", {"genre": "Drama", "cast": "Meryl Streep"}),
])
def test_films_featuring_someone_are_films_with_that_cast(client, text, want):
    """'featuring', 'starring', 'with' before a name give the actor slot its value (it was left out)."""
    assert calls(client, text, FILMS) == [("Cinema_FindFilms", want)]
