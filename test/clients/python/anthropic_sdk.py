"""The official `anthropic` Python SDK against the gateway (bare origin): plain, streamed, tools, .parse(), token counts, errors."""
import anthropic

from checks import (DOCS_PARAMS, GATEWAY, KEY, ONE_TOOL, PLAIN, STRUCTURED, TOOL_TEXT, TWO_STEPS, WEATHER_PARAMS,
                    Profile, ToolLog, check, expect, run_all)

MODEL = "claude-haiku-4-5"
client = anthropic.Anthropic(base_url=GATEWAY, api_key=KEY, max_retries=0)
TOOLS = [{"name": n, "description": TOOL_TEXT[n], "input_schema": p}
         for n, p in (("get_weather", WEATHER_PARAMS), ("search_docs", DOCS_PARAMS))]


def text_of(msg):
    return "".join(b.text for b in msg.content if b.type == "text")


def tool_loop(prompt, log, max_turns=5):
    messages = [{"role": "user", "content": prompt}]
    for _ in range(max_turns):
        msg = client.messages.create(model=MODEL, max_tokens=512, messages=messages, tools=TOOLS)
        messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in msg.content]})
        uses = [b for b in msg.content if b.type == "tool_use"]
        if not uses:
            return text_of(msg)
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": u.id, "content": log.run(u.name, u.input)} for u in uses]})
    raise AssertionError("no text answer")


@check
def plain():
    msg = client.messages.create(model=MODEL, max_tokens=512, messages=[{"role": "user", "content": PLAIN}])
    expect(len(text_of(msg)) > 0, "text")
    expect(msg.usage.input_tokens > 0 and msg.usage.output_tokens > 0, f"usage {msg.usage}")


@check
def streamed():
    with client.messages.stream(model=MODEL, max_tokens=512, messages=[{"role": "user", "content": PLAIN}]) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    expect(len(text) > 0 and text == text_of(final), "streamed text equals the final message")
    expect(final.usage.output_tokens > 0, "usage")


@check
def tools_one_round_trip():
    log = ToolLog()
    log.expect_one_trip(tool_loop(ONE_TOOL, log))


@check
def tools_two_step_loop():
    log = ToolLog()
    log.expect_two_steps(tool_loop(TWO_STEPS, log))


@check
def structured_output_parse():
    msg = client.messages.parse(model=MODEL, max_tokens=1024, messages=[{"role": "user", "content": STRUCTURED}],
                                output_format=Profile)
    expect(isinstance(msg.parsed_output, Profile), f"parsed {msg.parsed_output!r}")


@check
def count_tokens():
    res = client.messages.count_tokens(model=MODEL, messages=[{"role": "user", "content": PLAIN}], tools=TOOLS)
    expect(res.input_tokens > 0, "input tokens")


@check
def errors_are_parsed():
    try:
        anthropic.Anthropic(base_url=GATEWAY, api_key="gw_live_" + "0" * 40, max_retries=0).messages.create(
            model=MODEL, max_tokens=16, messages=[{"role": "user", "content": PLAIN}])
        raise AssertionError("a wrong key was accepted")
    except anthropic.AuthenticationError as e:
        expect(e.status_code == 401, f"status {e.status_code}")


run_all()
