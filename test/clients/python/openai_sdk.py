"""The official `openai` Python SDK against the gateway: chat and Responses, plain, streamed, tools, .parse(), embeddings, cross-format, errors."""
import json

import openai

from checks import (DOCS_PARAMS, GATEWAY, KEY, ONE_TOOL, PLAIN, STRUCTURED, TOOL_TEXT, TWO_STEPS, WEATHER_PARAMS,
                    Profile, ToolLog, check, expect, run_all)

client = openai.OpenAI(base_url=f"{GATEWAY}/v1", api_key=KEY, max_retries=0)
CHAT_TOOLS = [
    {"type": "function", "function": {"name": n, "description": TOOL_TEXT[n], "parameters": p}}
    for n, p in (("get_weather", WEATHER_PARAMS), ("search_docs", DOCS_PARAMS))
]
RESPONSES_TOOLS = [{"type": "function", "name": t["function"]["name"], "description": t["function"]["description"],
                    "parameters": t["function"]["parameters"]} for t in CHAT_TOOLS]


def chat_tool_loop(model, prompt, log, max_turns=5):
    messages = [{"role": "user", "content": prompt}]
    for _ in range(max_turns):
        msg = client.chat.completions.create(model=model, messages=messages, tools=CHAT_TOOLS).choices[0].message
        messages.append(msg.model_dump(exclude_none=True))
        if not msg.tool_calls:
            return msg.content or ""
        for call in msg.tool_calls:
            out = log.run(call.function.name, json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": out})
    raise AssertionError("no text answer")


def responses_tool_loop(model, prompt, log, max_turns=5):
    items = [{"role": "user", "content": prompt}]
    for _ in range(max_turns):
        res = client.responses.create(model=model, input=items, tools=RESPONSES_TOOLS)
        calls = [o for o in res.output if o.type == "function_call"]
        if not calls:
            return res.output_text
        for call in calls:
            items.append({"type": "function_call", "call_id": call.call_id, "name": call.name, "arguments": call.arguments})
            items.append({"type": "function_call_output", "call_id": call.call_id,
                          "output": log.run(call.name, json.loads(call.arguments))})
    raise AssertionError("no text answer")


@check
def plain():
    res = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": PLAIN}])
    expect(len(res.choices[0].message.content) > 0, "text")
    expect(res.usage.prompt_tokens > 0 and res.usage.completion_tokens > 0, f"usage {res.usage}")


@check
def streamed():
    text, usage = "", None
    for chunk in client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": PLAIN}],
                                                stream=True, stream_options={"include_usage": True}):
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
        usage = chunk.usage or usage
    expect(len(text) > 0, "streamed text")
    expect(usage is not None and usage.completion_tokens > 0, f"usage chunk {usage}")


@check
def tools_one_round_trip():
    log = ToolLog()
    log.expect_one_trip(chat_tool_loop("gpt-4o-mini", ONE_TOOL, log))


@check
def tools_two_step_loop():
    log = ToolLog()
    log.expect_two_steps(chat_tool_loop("gpt-4o-mini", TWO_STEPS, log))


@check
def structured_output_parse():
    parsed = client.chat.completions.parse(model="gpt-4o-mini", messages=[{"role": "user", "content": STRUCTURED}],
                                           response_format=Profile).choices[0].message.parsed
    expect(isinstance(parsed, Profile), f"parsed {parsed!r}")


@check
def responses_plain_streamed_tools_and_parse():
    res = client.responses.create(model="gpt-4o-mini", input=PLAIN)
    expect(len(res.output_text) > 0 and res.usage.output_tokens > 0, "Responses text and usage")
    text = "".join(e.delta for e in client.responses.create(model="gpt-4o-mini", input=PLAIN, stream=True)
                   if e.type == "response.output_text.delta")
    expect(len(text) > 0, "Responses stream text")
    log = ToolLog()
    log.expect_two_steps(responses_tool_loop("gpt-4o-mini", TWO_STEPS, log))
    parsed = client.responses.parse(model="gpt-4o-mini", input=STRUCTURED, text_format=Profile).output_parsed
    expect(isinstance(parsed, Profile), f"Responses parsed {parsed!r}")


@check
def embeddings():
    res = client.embeddings.create(model="text-embedding-3-small", input=["a document to embed", PLAIN])
    expect(len(res.data) == 2 and len(res.data[0].embedding) > 0, "two vectors")
    expect(res.usage.prompt_tokens > 0, "usage")


@check
def cross_format():
    for model in ("claude-haiku-4-5", "gateway/auto", "mock-openai/gpt-4o-mini"):
        res = client.chat.completions.create(model=model, messages=[{"role": "user", "content": PLAIN}])
        expect(len(res.choices[0].message.content) > 0, f"{model}: text")
        log = ToolLog()
        log.expect_one_trip(chat_tool_loop(model, ONE_TOOL, log))
        log = ToolLog()
        log.expect_one_trip(responses_tool_loop(model, ONE_TOOL, log))


@check
def errors_are_parsed():
    try:
        openai.OpenAI(base_url=f"{GATEWAY}/v1", api_key="gw_live_" + "0" * 40, max_retries=0).models.list()
        raise AssertionError("a wrong key was accepted")
    except openai.AuthenticationError as e:
        expect(e.status_code == 401, f"status {e.status_code}")


run_all()
