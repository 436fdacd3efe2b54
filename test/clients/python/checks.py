"""The runner the Python SDK checks share: each check runs, and one JSON line per check says how it went."""
import json
import os
import sys
import traceback

from pydantic import BaseModel

GATEWAY = os.environ["GW_URL"]  # the bare origin, http://127.0.0.1:<port>
KEY = os.environ["GW_KEY"]

PLAIN = "Say hello to the team."
ONE_TOOL = "What is the weather in Paris?"
TWO_STEPS = "Search the docs for refunds, then get the weather in Oslo."
STRUCTURED = "Describe a customer profile for the CRM."
WEATHER_RESULT = "sunny, 24 C"
DOCS_RESULT = "refunds take 5 days"

WEATHER_PARAMS = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "the city to report on"}},
    "required": ["city"],
    "additionalProperties": False,
}
DOCS_PARAMS = {
    "type": "object",
    "properties": {"query": {"type": "string", "description": "what to search the documentation for"}},
    "required": ["query"],
    "additionalProperties": False,
}
TOOL_TEXT = {"get_weather": "Get the current weather in a city", "search_docs": "Search the documentation"}


class Address(BaseModel):
    city: str
    country: str


class Profile(BaseModel):
    """The structured answer both SDKs' .parse() checks ask for (STRUCTURED)."""
    name: str
    age: int
    plan: str
    tags: list[str]
    address: Address


class ToolLog:
    """Runs the tools the model asks for and remembers the calls, as the TypeScript suite's ToolLog does."""

    def __init__(self):
        self.calls = []

    def run(self, name, args):
        self.calls.append((name, args))
        return WEATHER_RESULT if name == "get_weather" else DOCS_RESULT

    def expect_one_trip(self, text):
        expect(self.calls == [("get_weather", {"city": "Paris"})], f"one weather call for Paris, got {self.calls}")
        expect(WEATHER_RESULT in text, f"the answer uses the tool result: {text!r}")

    def expect_two_steps(self, text):
        expect([c[0] for c in self.calls] == ["search_docs", "get_weather"], f"docs then weather, got {self.calls}")
        expect(self.calls[1][1] == {"city": "Oslo"}, f"weather for Oslo, got {self.calls[1][1]}")
        expect(len(text) > 0, "a text answer at the end")


def expect(ok, what):
    if not ok:
        raise AssertionError(what)


CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def run_all():
    """Every check, one JSON line each; the exit code is 0 only when all passed."""
    failed = 0
    for fn in CHECKS:
        try:
            fn()
            print(json.dumps({"check": fn.__name__, "ok": True}), flush=True)
        except Exception as e:  # every failure is reported, not only assertions
            failed += 1
            detail = "".join(traceback.format_exception_only(type(e), e)).strip()
            print(json.dumps({"check": fn.__name__, "ok": False, "error": detail[:2000]}), flush=True)
    sys.exit(1 if failed else 0)
