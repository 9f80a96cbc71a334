"""`course mcp serve --profile`: the registry server also serves a resource, a template and a prompt; errors are -32602."""
from __future__ import annotations

import anyio
import pytest
from mcp import Client, types
from mcp.shared.exceptions import MCPError

from course_lib.mcp_profiles import PROFILES, build, registry_server


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_the_registry_server_serves_tools_a_resource_a_template_and_a_prompt(mode):
    async def main():
        async with Client(registry_server(), mode=mode) as c:
            tools = [t.name for t in (await c.list_tools()).tools]
            resources = [str(r.uri) for r in (await c.list_resources()).resources]
            templates = [t.uri_template for t in (await c.list_resource_templates()).resource_templates]
            page = (await c.read_resource("wiki://pages/hr-2")).contents[0].text
            prompt = (await c.get_prompt("wiki_question", {"question": "How many vacation days?", "space": "hr"}))
            spaces = await c.complete(types.PromptReference(type="ref/prompt", name="wiki_question"),
                                      {"name": "space", "value": "f"})
            errors = []
            for name, args in (("no_such_prompt", {}), ("wiki_question", {})):
                with pytest.raises(MCPError) as e:
                    await c.get_prompt(name, args)
                errors.append((e.value.error.code, e.value.error.message))
            return tools, resources, templates, page, prompt, spaces, errors
    tools, resources, templates, page, prompt, spaces, errors = anyio.run(main)
    assert tools == ["get_weather", "search_wiki"]
    assert resources == ["wiki://spaces"] and templates == ["wiki://pages/{page_id}"]
    assert page.startswith("# Vacation and holiday policy")
    text = prompt.messages[0].content.text
    assert "How many vacation days?" in text and 'space="hr"' in text
    assert spaces.completion.values == ["finance"]
    assert errors == [(-32602, "Unknown prompt: no_such_prompt"),
                      (-32602, "Invalid arguments for prompt wiki_question: missing required argument 'question'")]


def test_profiles_are_named_and_an_unknown_one_says_which_exist():
    assert list(PROFILES) == ["registry", "project-manager", "wiki", "conformance"]
    assert build("wiki").name == "wiki" and build("conformance").name == "mcp-conformance-test-server"
    with pytest.raises(ValueError, match="registry, project-manager, wiki, conformance"):
        build("nope")
