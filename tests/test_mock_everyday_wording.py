"""Everyday wordings a learner tries first (our own words): "what's in <a folder path>" asks a directory listing,
a home-relative folder path keeps its "~" and trailing slash, and a Chinese temperature scale written before
its number (华氏100度) is that number's unit, so a converter goes from it, not to it.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm.reading import read
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

LIST = tool("list_directory", "List the entries of a directory", {"path": {"type": "string"}})
READ = tool("read_file", "Read a text file", {"path": {"type": "string"}})
TEMP = tool("convert_temperature", "Convert a temperature between scales", {
    "value": {"type": "number"}, "from_unit": {"type": "string", "enum": ["celsius", "fahrenheit", "kelvin"]},
    "to_unit": {"type": "string", "enum": ["celsius", "fahrenheit", "kelvin"]}})


@pytest.mark.parametrize("text, path", [
    ("what's in /srv/media/photos", "/srv/media/photos"),
    ("What is inside ~/work/notes/", "~/work/notes/"),
])
def test_whats_in_a_folder_path_lists_it(client, text, path):
    assert calls(client, text, [READ, LIST]) == [("list_directory", {"path": path})]


def test_home_path_keeps_its_tilde_and_slash():
    assert [(m.kind, m.value) for m in read("open ~/work/notes/ please").mentions] == [("code", "~/work/notes/")]


@pytest.mark.parametrize("text, value, src, dst", [
    ("华氏98度是多少摄氏度", 98, "fahrenheit", "celsius"),
    ("摄氏25度等于华氏多少度", 25, "celsius", "fahrenheit"),
    ("98华氏度换成摄氏度", 98, "fahrenheit", "celsius"),
])
def test_chinese_scale_before_the_number(client, text, value, src, dst):
    assert calls(client, text, [TEMP]) == [("convert_temperature", {"value": value, "from_unit": src, "to_unit": dst})]


def test_scale_before_the_number_is_read_as_its_unit():
    (m,) = [m for m in read("华氏98度是多少摄氏度").mentions if m.kind == "number"]
    assert (m.value, m.unit, m.text) == (98, "°F", "华氏98度")


@pytest.mark.parametrize("text", ["a 3D film tonight", "is there a 4DX showing", "a phone with 5G"])
def test_a_format_name_is_no_figure(text):
    assert [m for m in read(text).mentions if m.kind == "number"] == []


def test_a_figure_before_a_capitalised_word_stays():
    assert [m.value for m in read("buy 3 Dell laptops").mentions if m.kind == "number"] == [3]


TRANSLATE = tool("translate", "Translate text", {
    "text": {"type": "string"}, "tgt_lang": {"type": "string", "description": "Target language"}}, required=["text", "tgt_lang"])


def test_target_language_is_read_or_asked_never_the_requests_own(client):
    assert calls(client, "translate 'Good morning' to Finnish", [TRANSLATE]) == [
        ("translate", {"text": "Good morning", "tgt_lang": "Finnish"})]
    reply = calls(client, "translate 'Good morning'", [TRANSLATE])
    assert isinstance(reply, str) and "tgt lang" in reply and reply.endswith("?")  # not tgt_lang="English"
