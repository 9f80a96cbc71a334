"""Structured outputs on the mock: response_format / text.format, through the clients learners use.

The ``openai`` SDK's ``chat.completions.parse``/``stream`` and ``responses.parse``/``stream``
always; the OpenAI Agents SDK (``output_type``), LangChain (``with_structured_output(method=
"json_schema")``) and pydantic-ai (``NativeOutput``) when installed (they are in the lock for
the frameworks lesson). The content is JSON that validates against the schema, or a refusal
naming what the conversation does not say; never invalid JSON, never an invented value.
"""
from __future__ import annotations

import json
from typing import Literal, Optional

import openai
import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel

from course_lib.mock_llm import MockLLM


class Trip(BaseModel):
    """A trip plan."""

    city: str
    days: int
    budget: Optional[float] = None


class Address(BaseModel):
    city: str


class Person(BaseModel):
    name: str
    address: Address


class Ticket(BaseModel):
    priority: Literal["low", "medium", "high"]
    title: str


class WeatherReport(BaseModel):
    city: str
    temp: float
    humidity: int


class Book(BaseModel):
    isbn: str


def parse(client, model, text: str, **kw):
    return client.chat.completions.parse(model="m", messages=[{"role": "user", "content": text}],
                                         response_format=model, **kw).choices[0]


@pytest.mark.parametrize("model, text, expected", [
    (Trip, "Plan 3 days in Paris", Trip(city="Paris", days=3, budget=None)),
    (Person, "My name is 'Ada Lovelace' and I live in London", Person(name="Ada Lovelace",
                                                                      address=Address(city="London"))),
    (Ticket, "Create a ticket titled 'Login broken' with high priority", Ticket(priority="high", title="Login broken")),
])
def test_parse_fills_the_model_from_what_the_user_wrote(client, model, text, expected):
    choice = parse(client, model, text)
    assert choice.message.parsed == expected and choice.message.refusal is None
    assert choice.finish_reason == "stop"
    schema = openai.lib._parsing._completions.type_to_response_format_param(model)["json_schema"]["schema"]
    assert Draft202012Validator(schema).is_valid(json.loads(choice.message.content))


def test_a_value_the_conversation_does_not_give_is_a_refusal_never_invented(client):
    choice = parse(client, Book, "Hello there")
    assert choice.message.parsed is None and choice.message.content is None
    assert choice.message.refusal.startswith("I could not fill the 'Book' format from this conversation: it does "
                                             "not clearly say the 'isbn' (a required value).")
    r = client.responses.parse(model="m", input="Hello there", text_format=Book)
    assert r.output_parsed is None and r.output[0].content[0].type == "refusal"
    assert "'isbn'" in r.output[0].content[0].refusal


def test_a_chinese_request_is_refused_in_chinese(client):
    choice = parse(client, Book, "给我推荐一本书")
    assert choice.message.parsed is None and choice.message.content is None
    assert choice.message.refusal.startswith("无法根据这段对话填写 'Book' 格式：对话里没有明确给出 'isbn'（必填值）。")
    r = client.responses.parse(model="m", input="你好", text_format=Book)
    assert r.output[0].content[0].refusal.startswith("无法根据这段对话填写 'Book' 格式")
    english_after_chinese = client.chat.completions.parse(model="m", response_format=Book, messages=[
        {"role": "user", "content": "你好"}, {"role": "assistant", "content": "你好！"},
        {"role": "user", "content": "Hello there"}]).choices[0].message
    assert english_after_chinese.refusal.startswith("I could not fill the 'Book' format")  # the newest message's language


class CalendarEvent(BaseModel):
    name: str
    date: str
    participants: list[str]


def test_words_read_for_two_properties_are_a_confused_reading_and_refused(client):
    """OpenAI's own structured-outputs example: a wrong value would be worse than saying what it could not read."""
    confused = parse(client, CalendarEvent, "Alice and Bob are going to a science fair on Friday.").message
    assert confused.parsed is None
    assert "does not clearly say the 'name', 'participants' (required values)" in confused.refusal
    clear = parse(client, CalendarEvent, "Team standup called 'Sprint review' on 2026-12-03 with Alice, Bob and Chen")
    assert clear.message.parsed == CalendarEvent(name="Sprint review", date="2026-12-03",
                                                 participants=["Alice", "Bob", "Chen"])


def test_values_come_from_tool_results_by_field_name(client):
    tool = openai.pydantic_function_tool(Address, name="get_weather", description="Get the current weather for a city")
    msgs = [{"role": "user", "content": "What's the weather in Shanghai?"}]
    first = client.chat.completions.create(model="m", messages=msgs, tools=[tool]).choices[0].message
    assert first.tool_calls[0].function.arguments == '{"city": "Shanghai"}'  # a turn with calls stays a tool call
    msgs += [first.model_dump(exclude_none=True),
             {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": '{"temp": 28, "Humidity": 65}'}]
    report = client.chat.completions.parse(model="m", messages=msgs, tools=[tool], response_format=WeatherReport)
    assert report.choices[0].message.parsed == WeatherReport(city="Shanghai", temp=28.0, humidity=65)


class Forecast(BaseModel):
    city: str
    temp: float


class Forecasts(BaseModel):
    reports: list[Forecast]


def test_a_tool_call_and_its_result_are_one_record_and_a_list_takes_one_item_each(client):
    tool = openai.pydantic_function_tool(Address, name="get_weather", description="Get the current weather for a city")
    msgs = [{"role": "user", "content": "What's the weather in Paris and Tokyo?"}]
    first = client.chat.completions.create(model="m", messages=msgs, tools=[tool]).choices[0].message
    assert [c.function.arguments for c in first.tool_calls] == ['{"city": "Paris"}', '{"city": "Tokyo"}']
    msgs += [first.model_dump(exclude_none=True)] + [
        {"role": "tool", "tool_call_id": c.id, "content": json.dumps({"temp": t, "humidity": 50})}
        for c, t in zip(first.tool_calls, (21, 12.5))]  # the results do not repeat the city: the calls said it
    parsed = client.chat.completions.parse(model="m", messages=msgs, tools=[tool],
                                           response_format=Forecasts).choices[0].message.parsed
    assert parsed == Forecasts(reports=[Forecast(city="Paris", temp=21), Forecast(city="Tokyo", temp=12.5)])


def test_streamed_structured_output_and_streamed_refusal(client):
    with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "Plan 3 days in Paris"}],
                                        response_format=Trip) as stream:
        kinds = {ev.type for ev in stream}
        final = stream.get_final_completion().choices[0].message
    assert "content.delta" in kinds and final.parsed == Trip(city="Paris", days=3)
    with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "Hello"}],
                                        response_format=Book) as stream:
        kinds = {ev.type for ev in stream}
        final = stream.get_final_completion().choices[0].message
    assert {"refusal.delta", "refusal.done"} <= kinds and final.parsed is None and "'isbn'" in final.refusal
    with client.responses.stream(model="m", input="Hello", text_format=Book) as stream:
        kinds = [ev.type for ev in stream]
    assert "response.refusal.delta" in kinds and "response.output_text.delta" not in kinds


def test_responses_parse_and_the_echoed_format(client):
    r = client.responses.parse(model="m", input="Plan 3 days in Paris", text_format=Trip)
    assert r.output_parsed == Trip(city="Paris", days=3)
    assert r.text.format.type == "json_schema" and r.text.format.name == "Trip"


def test_responses_stream_a_structured_output_and_continue_it_from_the_store(client):
    with client.responses.stream(model="m", input="Plan 3 days in Paris", text_format=Trip) as stream:
        kinds = [ev.type for ev in stream]
        first = stream.get_final_response()
    assert "response.output_text.delta" in kinds and kinds[-1] == "response.completed"
    assert first.output_parsed == Trip(city="Paris", days=3)
    then = client.responses.parse(model="m", previous_response_id=first.id, input="Make it Rome instead",
                                  text_format=Trip)
    assert then.output_parsed == Trip(city="Rome", days=3)  # the days come from the stored turn


def test_a_cut_answer_is_reported_as_length_as_the_sdk_expects(client):
    with pytest.raises(openai.LengthFinishReasonError):
        parse(client, Trip, "Plan 3 days in Paris", max_tokens=3)


def test_json_object_needs_the_word_json_and_answers_an_object(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Plan 3 days in Rome"}],
                                       response_format={"type": "json_object"})
    assert caught.value.body["message"] == ("'messages' must contain the word 'json' in some form, to use "
                                            "'response_format' of type 'json_object'.")
    r = client.chat.completions.create(model="m", response_format={"type": "json_object"}, messages=[
        {"role": "system", "content": 'Reply in JSON like {"city": "...", "days": 1}.'},
        {"role": "user", "content": "Plan 3 days in Rome"}])
    assert json.loads(r.choices[0].message.content) == {"city": "Rome", "days": 3}
    r = client.chat.completions.create(model="m", response_format={"type": "json_object"},
                                       messages=[{"role": "user", "content": "Hello, answer in json"}])
    assert set(json.loads(r.choices[0].message.content)) == {"answer"}
    with pytest.raises(openai.BadRequestError, match="must contain the word 'json'"):
        client.responses.create(model="m", input="Plan a trip", text={"format": {"type": "json_object"}})


def _format(schema: dict, name: str = "Thing", strict: bool = True) -> dict:
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": strict}}


OBJ = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": False}


@pytest.mark.parametrize("fmt, param, says", [
    (_format({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
     "response_format.json_schema.schema", "'additionalProperties' is required to be supplied and to be false"),
    (_format({**OBJ, "allOf": [{"type": "object"}]}), "response_format.json_schema.schema", "'allOf' is not permitted"),
    (_format({"type": "array", "items": {"type": "string"}}), "response_format.json_schema.schema",
     "schema must be a JSON Schema of 'type: \"object\"'"),
    (_format({**OBJ, "properties": {"city": {"$ref": "#/$defs/Nope"}}}), "response_format.json_schema.schema",
     "reference '#/$defs/Nope' can't be resolved"),
    (_format(OBJ, name="has spaces"), "response_format.json_schema.name", "does not match pattern"),
    ({"type": "json_schema", "json_schema": {"schema": OBJ}}, "response_format.json_schema.name",
     "Missing required parameter"),
    ({"type": "yaml"}, "response_format.type", "Supported values are: 'text', 'json_object' and 'json_schema'"),
])
def test_bad_formats_get_a_400_naming_the_problem(client, fmt, param, says):
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Paris"}],
                                       response_format=fmt)
    assert caught.value.body["param"] == param and says in caught.value.body["message"]


def test_a_non_strict_schema_may_leave_optional_fields_out(client):
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"},
                                               "notes": {"type": "string"}}, "required": ["city"]}
    r = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Plan 3 days in Paris"}],
                                       response_format=_format(schema, strict=False))
    assert json.loads(r.choices[0].message.content) == {"city": "Paris", "days": 3}


def test_responses_text_format_errors_name_text_format(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", input="Paris", text={"format": {"type": "json_schema", "schema": OBJ}})
    assert caught.value.body["param"] == "text.format.name"


# ---------------------------------------------------------------------- the agent frameworks
def test_openai_agents_sdk_output_type_on_both_apis():
    agents = pytest.importorskip("agents")
    import asyncio

    agents.set_tracing_disabled(True)  # the SDK would export traces to the real service otherwise
    mock = MockLLM()

    @agents.function_tool
    def get_weather(city: str) -> str:
        """Get the current weather for a city."""
        return json.dumps({"temp": 28, "humidity": 65})

    async def run(model_cls) -> object:
        agent = agents.Agent(name="weather", instructions="Report the weather.", tools=[get_weather],
                             output_type=WeatherReport,
                             model=model_cls(model="mock-llm", openai_client=mock.async_client(max_retries=0)))
        return (await agents.Runner.run(agent, "What's the weather in Shanghai?")).final_output

    for model_cls in (agents.OpenAIResponsesModel, agents.OpenAIChatCompletionsModel):
        assert asyncio.run(run(model_cls)) == WeatherReport(city="Shanghai", temp=28.0, humidity=65)
    final = mock.log[-1].request
    assert final["response_format"]["json_schema"]["name"] == "final_output"
    assert final["response_format"]["json_schema"]["strict"] is True


def test_langchain_with_structured_output_json_schema():
    langchain_openai = pytest.importorskip("langchain_openai")
    mock = MockLLM()
    llm = langchain_openai.ChatOpenAI(model="mock-llm", api_key="not-needed", base_url="http://mock-llm.invalid/v1",
                                      http_client=mock.client()._client, max_retries=0)
    assert llm.with_structured_output(Trip, method="json_schema").invoke("Plan 3 days in Paris") == \
        Trip(city="Paris", days=3)
    raw = llm.with_structured_output(Book, method="json_schema", include_raw=True).invoke("Hello")
    assert raw["parsed"] is None and "'isbn'" in raw["raw"].additional_kwargs["refusal"]
    assert mock.log[-1].request["response_format"]["json_schema"]["name"] == "Book"


def test_pydantic_ai_native_output_on_both_apis():
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent, NativeOutput
    from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    mock = MockLLM()
    for model_cls in (OpenAIChatModel, OpenAIResponsesModel):
        model = model_cls("mock-llm", provider=OpenAIProvider(openai_client=mock.async_client(max_retries=0)))
        assert Agent(model, output_type=NativeOutput(Trip)).run_sync("Plan 3 days in Paris").output == \
            Trip(city="Paris", days=3)
    assert mock.log[-1].request["text"]["format"]["type"] == "json_schema"


def _forecast_format() -> dict:
    schema = {"type": "object", "properties": {"city": {"type": "string"},
                                               "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
              "required": ["city", "unit"], "additionalProperties": False}
    return {"type": "json_schema", "json_schema": {"name": "Forecast", "schema": schema, "strict": True}}


LONG = "This paragraph talks about nothing in particular. " * 8000  # about 400 KB, within the context limit


def _chat(messages: list[dict], response_format: dict) -> dict:
    reply = MockLLM().handle("POST", "/v1/chat/completions", {}, json.dumps(
        {"model": "m", "messages": messages, "response_format": response_format}).encode())
    assert reply.status == 200
    return json.loads(reply.body)["choices"][0]["message"]


def test_a_long_message_is_read_for_its_format_up_to_the_engines_read_limit(monkeypatch):
    """Values in the first READ_LIMIT characters are read; past it nothing is (a refusal, not a minute of reading)."""
    from course_lib.mock_llm import structured_output
    from course_lib.mock_llm.reading import READ_LIMIT

    read_lengths: list[int] = []
    real = structured_output.fill_schema

    def measured(schema, messages):
        read_lengths.extend(len(m["content"]) for m in messages)
        return real(schema, messages)

    monkeypatch.setattr(structured_output, "fill_schema", measured)
    first = _chat([{"role": "user", "content": "Forecast for Paris in celsius. " + LONG}], _forecast_format())
    assert json.loads(first["content"]) == {"city": "Paris", "unit": "celsius"}
    assert read_lengths and max(read_lengths) <= READ_LIMIT
    late = _chat([{"role": "user", "content": LONG + " Forecast for Paris in celsius."}], _forecast_format())
    assert late["content"] is None and "'city'" in late["refusal"]


def test_only_the_newest_user_messages_are_read_for_a_format(monkeypatch):
    from course_lib.mock_llm import structured_output

    seen: list[int] = []
    real = structured_output.fill_schema
    monkeypatch.setattr(structured_output, "fill_schema", lambda s, m: (seen.append(len(m)), real(s, m))[1])
    turns = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"Turn {i}: nothing to note."}
             for i in range(2000)]
    recent = _chat(turns + [{"role": "user", "content": "Forecast for Oslo in fahrenheit."}], _forecast_format())
    assert json.loads(recent["content"]) == {"city": "Oslo", "unit": "fahrenheit"}
    assert seen == [structured_output.FORMAT_READ_MESSAGES]


def test_json_object_tries_a_few_examples_however_many_braces_the_prompt_holds(monkeypatch):
    from course_lib.mock_llm import structured_output

    calls: list[dict] = []
    real = structured_output.answer

    def counted(fmt, messages, text_answer):
        calls.append(fmt.schema or {})
        return real(fmt, messages, text_answer)

    monkeypatch.setattr(structured_output, "answer", counted)
    prompt = "Reply in JSON. Examples: " + '{"isbn": "unknown"} ' * 20_000
    message = _chat([{"role": "system", "content": prompt}, {"role": "user", "content": "Hi"}],
                    {"type": "json_object"})
    assert json.loads(message["content"]) == {"answer": "Hello! How can I help you today?"}
    # the server's own call (the json_object format, no schema), then one filling tried per example: 4 of 20,000
    assert calls[0] == {} and len(calls[1:]) == structured_output.JSON_EXAMPLES_TRIED
