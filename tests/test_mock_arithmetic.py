"""Arithmetic in requests: read in words and symbols (EN, ZH), sent to calculators and one-operation tools,
computed safely, and said in the answer after the tool's result.

Tools are our own, shaped like the tutorials' calculators (a string ``expression``, LangChain's
``Calculator(query)``, ``add(a, b)``-style tools); requests go through the real ``openai`` client.
"""
from __future__ import annotations

import json

import pytest

from course_lib.mock_llm import arithmetic as ar
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


CALC = tool("calculator", "Evaluate a mathematical expression.",
            {"expression": {"type": "string", "description": "The expression to evaluate."}})
LANGCHAIN_CALC = tool("Calculator", "Useful for when you need to answer questions about math.", {"query": {"type": "string"}})
PY_CALC = tool("python_calc", "Evaluate a Python arithmetic expression, e.g. '2**8'.", {"code": {"type": "string"}})
WEATHER = tool("get_weather", "Get the current weather for a city.", {"city": {"type": "string"}})
ADD = tool("add", "Add two numbers.", {"a": {"type": "integer"}, "b": {"type": "integer"}})
MUL = tool("multiply", "Multiply two numbers.", {"x": {"type": "number"}, "y": {"type": "number"}})
POW = tool("power", "Raise a number to a power.", {"base": {"type": "number"}, "exponent": {"type": "number"}})
DIV = tool("divide", "Divide one number by another.", {"divisor": {"type": "number"}, "dividend": {"type": "number"}})
SUB = tool("subtract", "Subtract b from a.", {"a": {"type": "number"}, "b": {"type": "number"}})
SUM = tool("sum_numbers", "Add up a list of numbers.", {"numbers": {"type": "array", "items": {"type": "number"}}})
OPS = [ADD, MUL, POW, DIV, SUB]
RESULTS = {"add": lambda a: a["a"] + a["b"], "multiply": lambda a: a["x"] * a["y"],
           "power": lambda a: a["base"] ** a["exponent"], "divide": lambda a: a["dividend"] / a["divisor"],
           "subtract": lambda a: a["a"] - a["b"], "calculator": lambda a: ar.evaluate(a["expression"]),
           "get_weather": lambda a: {"temp": 28, "condition": "sunny"}}


def conversation(client, text: str, tools: list[dict], rounds: int = 5) -> tuple[list, str]:
    """Every round of calls until the mock answers, the tools answering with :data:`RESULTS`."""
    messages, made = [{"role": "user", "content": text}], []
    for _ in range(rounds):
        msg = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message
        messages.append(msg.model_dump(exclude_none=True))
        if not msg.tool_calls:
            return made, msg.content
        for c in msg.tool_calls:
            args = json.loads(c.function.arguments)
            made.append((c.function.name, args))
            messages.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps(RESULTS[c.function.name](args))})
    raise AssertionError(f"no answer after {rounds} rounds: {made}")


# ------------------------------------------------------------------------------ reading
@pytest.mark.parametrize("text, expression, value", [
    ("what is 17*23?", "17 * 23", 391),                       # symbols
    ("(3+4)^2", "(3 + 4) ** 2", 49),
    ("2**10", "2 ** 10", 1024),
    ("sqrt(2)", "sqrt(2)", 1.41421356237),
    ("Calculate 5 + 3 * 2", "5 + 3 * 2", 11),                 # precedence kept
    ("what's 3 x 4", "3 * 4", 12),                            # "x" between figures
    ("12 ÷ 4 × 3", "12 / 4 * 3", 9),
    ("what is 15 % of 80", "15 / 100 * 80", 12),              # percent of
    ("15 percent of 80", "15 / 100 * 80", 12),
    ("what is three plus one", "3 + 1", 4),                   # words
    ("what is 12 divided by 4", "12 / 4", 3),
    ("twenty five times four", "25 * 4", 100),
    ("subtract 37 from 100", "100 - 37", 63),                 # prefix forms, operands in the right order
    ("the sum of 3 and 4", "3 + 4", 7),
    ("multiply 6 by 7", "6 * 7", 42),
    ("2 to the power of 10", "2 ** 10", 1024),
    ("2 to the 10th power", "2 ** 10", 1024),
    ("what is 3 squared", "3 ** 2", 9),
    ("the square root of 16 plus 2", "sqrt(16) + 2", 6),
    ("5!", "factorial(5)", 120),
    ("what is 10 mod 3", "10 % 3", 1),
    ("一百减三十七等于多少？", "100 - 37", 63),                  # Chinese numerals and operators
    ("3的平方是多少", "3 ** 2", 9),
    ("2的10次方", "2 ** 10", 1024),
    ("16的平方根", "sqrt(16)", 4),
    ("根号2", "sqrt(2)", 1.41421356237),
    ("3乘以4", "3 * 4", 12),
    ("十除以二", "10 / 2", 5),
    ("80的百分之十五", "15 / 100 * 80", 12),
    ("一百二十乘以三点五是多少", "120 * 3.5", 420),              # 点 between digits: the decimal point
    ("零点五加零点二五", "0.5 + 0.25", 0.75),
])
def test_expressions_in_words_and_symbols(text, expression, value):
    found = ar.find(text)
    assert [a.expression for a in found] == [expression]
    assert found[0].value == value


@pytest.mark.parametrize("text", [
    "3 times a day", "on 2026-12-01", "24/7 support", "5-10 minutes", "1/2 cup of flour",
    "3x^2 + 2x - 1",            # algebra: a variable beside the numbers
    "f(x) = 2x + 3", "call +1 555-1234", "I have 3 apples and 4 oranges", "加拿大的首都",
    "add 2 eggs to the list", "Find the area with base 10 and height 5",
    "下午三点提醒我开会",          # 三点 alone is three o'clock, no number 3.x
])
def test_no_arithmetic_where_there_is_none(text):
    assert ar.find(text) == ()


def test_a_bare_difference_or_ratio_needs_a_request_to_compute():
    assert [a.expression for a in ar.find("what is 100-37")] == ["100 - 37"]
    assert [a.expression for a in ar.find("100-37=")] == ["100 - 37"]
    assert ar.find("see pages 100-37") == ()


def test_shown_form_and_operands():
    a, = ar.find("what is 17*23?")
    assert (a.shown, a.operation, a.operands) == ("17 × 23", "*", [17, 23])
    b, = ar.find("(3+4)*2")
    assert b.operands == [] and b.first_step.expression == "3 + 4"
    c, = ar.find("what is 15 % of 80")
    assert c.shown == "15 % of 80"


# ------------------------------------------------------------------------------ evaluating
@pytest.mark.parametrize("expression, value", [
    ("(3+4)^2", 49), ("2**10", 1024), ("12/4", 3), ("7/2", 3.5), ("17 % 5", 2), ("-5 + 3", -2),
    ("sqrt(16)", 4), ("factorial(5)", 120), ("2 × 3 ÷ 4", 1.5), ("pi", 3.14159265359),
])
def test_evaluate(expression, value):
    assert ar.evaluate(expression) == value


@pytest.mark.parametrize("expression, message", [
    ("__import__('os').system('ls')", "not an arithmetic expression"),
    ("(1).__class__", "not an arithmetic expression"),
    ("a + b", "not an arithmetic expression"),
    ("'1' * 3", "not an arithmetic expression"),
    ("2 ** 100000", "exponent"),
    ("9 ** 9 ** 9", "exponent"),
    ("factorial(10000)", "factorial"),
    ("1" + "+1" * 300, "longer than"),
])
def test_evaluate_refuses_what_is_not_bounded_arithmetic(expression, message):
    with pytest.raises(ValueError, match=message):
        ar.evaluate(expression)


def test_evaluate_division_by_zero():
    with pytest.raises(ZeroDivisionError):
        ar.evaluate("1/0")


# ------------------------------------------------------------------------------ calling
@pytest.mark.parametrize("text, expression", [
    ("what is 17*23?", "17 * 23"), ("What is three plus one?", "3 + 1"), ("what is 12 divided by 4", "12 / 4"),
    ("what is 15 % of 80?", "15 / 100 * 80"), ("一百减三十七等于多少？", "100 - 37"), ("计算 3乘以4", "3 * 4"),
    ("(3+4)^2", "(3 + 4)^2"),  # the user's own power sign when the calculator says nothing of it
])
def test_a_calculator_gets_the_expression(client, text, expression):
    assert calls(client, text, [CALC]) == [("calculator", {"expression": expression})]


def test_calculator_styles(client):
    # LangChain's llm-math tool: its one string argument; a Python calculator: Python's power sign
    assert calls(client, "what's 25 * 4?", [LANGCHAIN_CALC]) == [("Calculator", {"query": "25 * 4"})]
    assert calls(client, "(3+4)^2", [PY_CALC]) == [("python_calc", {"code": "(3 + 4) ** 2"})]


@pytest.mark.parametrize("text, expected", [
    ("What is 6 times 7?", ("multiply", {"x": 6, "y": 7})),
    ("what is three plus four", ("add", {"a": 3, "b": 4})),
    ("what is 2 to the power of 10", ("power", {"base": 2, "exponent": 10})),
    ("what is 12 divided by 4", ("divide", {"dividend": 12, "divisor": 4})),   # roles by name, not order
    ("subtract 37 from 100", ("subtract", {"a": 100, "b": 37})),
    ("一百减三十七等于多少", ("subtract", {"a": 100, "b": 37})),
])
def test_one_operation_tools_get_the_numbers(client, text, expected):
    assert calls(client, text, OPS) == [expected]


def test_a_list_tool_gets_every_operand(client):
    assert calls(client, "what is 1+2+3+4", [SUM]) == [("sum_numbers", {"numbers": [1, 2, 3, 4]})]


def test_parallel_with_another_tool(client):
    got = calls(client, "What's the weather in Shanghai and what is 17*23?", [WEATHER, CALC])
    assert got == [("get_weather", {"city": "Shanghai"}), ("calculator", {"expression": "17 * 23"})]
    got = calls(client, "What's the weather in Shanghai and calculate 17*23", [WEATHER, CALC])
    assert ("calculator", {"expression": "17 * 23"}) in got  # not the city as an expression


def test_no_calculator_call_without_arithmetic(client):
    assert calls(client, "What's the weather in Paris?", [WEATHER, CALC]) == [("get_weather", {"city": "Paris"})]
    for text in ("What is the capital of France?", "Tell me a joke", "I have 3 apples and 4 oranges"):
        assert isinstance(calls(client, text, [CALC]), str), text


# ------------------------------------------------------------------------------ answering
@pytest.mark.parametrize("text, tools, calls, answer", [
    ("what is 17*23?", [CALC], [("calculator", {"expression": "17 * 23"})], "17 × 23 = 391."),
    ("What's the weather in Shanghai and what is 17*23?", [WEATHER, CALC],
     [("get_weather", {"city": "Shanghai"}), ("calculator", {"expression": "17 * 23"})], "17 × 23 = 391."),
    ("一百减三十七等于多少？", [CALC], [("calculator", {"expression": "100 - 37"})], "100 - 37 = 63。"),
    ("what is 6 times 7", OPS, [("multiply", {"x": 6, "y": 7})], "6 × 7 = 42."),
])
def test_the_answer_says_the_result(client, text, tools, calls, answer):
    made, said = conversation(client, text, tools)
    assert made == calls
    assert said.endswith(answer)


def test_steps_with_one_operation_tools(client):
    """"(3+4)*2" with add and multiply: add first, then multiply its result, as a model chains calls."""
    made, said = conversation(client, "what is (3+4)*2", OPS)
    assert made == [("add", {"a": 3, "b": 4}), ("multiply", {"x": 7, "y": 2})]
    assert said == "3 + 4 = 7. 7 × 2 = 14."
    made, _ = conversation(client, "what is 2*3 + 4*5", OPS)
    assert made == [("multiply", {"x": 2, "y": 3}), ("multiply", {"x": 4, "y": 5}), ("add", {"a": 6, "b": 20})]


def test_answer_sentence_from_results_of_any_shape():
    assert ar.answer("calculator", {"expression": "17 * 23"}, 391) == "17 × 23 = 391"
    assert ar.answer("calculator", {"expression": "17 * 23"}, {"result": 391}) == "17 × 23 = 391"
    assert ar.answer("calculator", {"expression": "17 * 23"}, "391") == "17 × 23 = 391"
    assert ar.answer("add", {"a": 3, "b": 4}, 7) == "3 + 4 = 7"
    assert ar.answer("get_weather", {"city": "Paris"}, 21) is None  # not a computation
    assert ar.answer("calculator", {"expression": "17 * 23"}, {"error": "overflow"}) is None


def test_two_computations_two_calculator_calls(client):
    got = calls(client, "what is 3+4 and what is 5*6?", [CALC])
    assert got == [("calculator", {"expression": "3 + 4"}), ("calculator", {"expression": "5 * 6"})]


def test_docstring_examples():
    import doctest

    result = doctest.testmod(ar, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_computations_asked_together_each_get_their_tool(client):
    add, sub = tool("add_two_numbers", "Add two numbers", {"a": {"type": "integer"}, "b": {"type": "integer"}}), \
        tool("subtract_two_numbers", "Subtract two numbers", {"a": {"type": "integer"}, "b": {"type": "integer"}})
    assert calls(client, "what's 7 + 5, and 20 - 8?", [add, sub]) == [
        ("add_two_numbers", {"a": 7, "b": 5}), ("subtract_two_numbers", {"a": 20, "b": 8})]
    assert [a.expression for a in ar.find("pages 3*4 and 5-10 minutes")] == ["3 * 4"]  # a range stays a range
