"""Kinds of film and music named by other words (issue 13, kind 'option synonyms'): 'a scary film' names the genre
option 'Horror', 'a cartoon' 'Animation', 'science fiction' 'Sci-fi', 'something funny' 'Comedy', 恐怖 'Horror'
(course_lib/data/option_synonyms.json). An option's own spelling said beside such a word wins. Our own tools,
through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

FILMS = [tool("Cinema_Browse", "Browse films by genre",
              {"genre": {"type": "string", "enum": ["Horror", "Animation", "Sci-fi", "Comedy", "Thriller", "Action",
                                                   "Drama"], "description": "Kind of film"},
               "year": {"type": "integer", "description": "Release year", "default": 0}}, required=["genre"])]
SONGS = [tool("Radio_FindSongs", "Find songs by genre",
              {"genre": {"type": "string", "enum": ["Country", "Rock", "Jazz", "dontcare"], "default": "dontcare",
                         "description": "Genre of the songs"}}, required=[])]


@pytest.mark.parametrize("text, genre", [
    ("Browse some scary films for Halloween", "Horror"),
    ("I want to browse films about haunted houses", "Horror"),
    ("Browse cartoon films for my nephew", "Animation"),
    ("Browse science fiction films", "Sci-fi"),
    ("Browse something funny to watch tonight", "Comedy"),
    ("Browse suspenseful films", "Thriller"),
    ("Browse a thrilling Action film", "Action"),
])
def test_a_genre_named_by_another_word(client, text, genre):
    """The genre was left out, or the mock asked for it: the word said was none of the options' spellings."""
    result = calls(client, text, FILMS)
    assert isinstance(result, list) and result[0][0] == "Cinema_Browse" and result[0][1]["genre"] == genre, result


ZH_FILMS = [tool("browse_films", "按类型浏览电影 (browse films by genre)",
                 {"genre": {"type": "string", "enum": ["Horror", "Animation", "Comedy"], "description": "电影类型"}})]


@pytest.mark.parametrize("text, genre", [("浏览恐怖电影", "Horror"), ("帮我找几部动画电影", "Animation"),
                                         ("浏览一些喜剧电影", "Comedy")])
def test_a_genre_named_in_chinese(client, text, genre):
    assert calls(client, text, ZH_FILMS) == [("browse_films", {"genre": genre})]


def test_a_music_genre_named_by_another_word(client):
    assert calls(client, "Find some hillbilly songs", SONGS) == [("Radio_FindSongs", {"genre": "Country"})]


def test_the_words_name_no_option_the_enum_lacks(client):
    """'scary' names 'Horror' only where the enum has it: a music enum without it takes nothing from the word."""
    result = calls(client, "Find some scary songs", SONGS)
    assert isinstance(result, str) or all(a.get("genre") in (None, "dontcare") for _, a in result)
