"""Scripted tool-calling agents for the fake provider server, in each wire format.

A request with tools to a model named `agent-<kind>` is answered by a scripted agent, which reads
the conversation so far (stateless, as a real model does) and makes its next move:

- `agent-text`: document_info, then page_text of every page, then submits what the text layer
  says (the `text` value of `agent_script`, else the page text itself): falls for a hidden layer;
- `agent-image`: document_info, then page_image of every page, then submits the visible value
  (the `image` value of `agent_script`, else the server's plain script's answer for the question:
  `fake-server --script` with `{question text: expected answer}` scripts it from the command line);
- `agent-loop`: reads page 1's text again and again, `loop_s` seconds a turn, never submitting;
- `agent-twice`: document_info, then two submissions in one turn (the visible value, then the
  text layer's): the first stands;
- `agent-badjson`: submits text that is not JSON as an extraction's answer, then ends its turn.
- `agent-deep`: submits an answer of lists nested DEEP levels (a hostile or broken model: the
  tools must answer it with an error, not end the run), then ends its turn.

`agent_script` maps text found in the question (or "*") to `{"text": ..., "image": ...}`; a plain
script (text found in the question, or "*", to an answer) stands for the image values it lacks.
"""

from __future__ import annotations

import json
import time

from workbench.core.schema import JSONObject

AGENT_KINDS = ("text", "image", "loop", "twice", "badjson", "deep")
DEEP = 900   # under the JSON decoder's own limit (about 990 inside a response), over every check's


def is_agent_request(model: str, body: JSONObject) -> bool:
    return model.partition("+")[0].startswith("agent-") and bool(body.get("tools"))


def _results(fmt: str, body: JSONObject) -> tuple[int, list[tuple[str, str]]]:
    """(assistant turns so far, [(tool name, result text)]) of a conversation in `fmt`."""
    turns = 0
    out: list[tuple[str, str]] = []
    if fmt == "openai":
        names: dict[str, str] = {}
        for msg in body.get("messages") or []:
            if msg.get("role") == "assistant":
                turns += 1
                for tc in msg.get("tool_calls") or []:
                    names[tc.get("id")] = tc.get("function", {}).get("name", "")
            elif msg.get("role") == "tool":
                out.append((names.get(msg.get("tool_call_id"), ""), str(msg.get("content") or "")))
    elif fmt == "anthropic":
        names = {}
        for msg in body.get("messages") or []:
            for block in msg.get("content") or [] if isinstance(msg.get("content"), list) else []:
                if block.get("type") == "tool_use":
                    names[block.get("id")] = block.get("name", "")
                elif block.get("type") == "tool_result":
                    text = "".join(c.get("text", "") for c in block.get("content") or [] if c.get("type") == "text")
                    out.append((names.get(block.get("tool_use_id"), ""), text))
            turns += msg.get("role") == "assistant"
    else:
        for content in body.get("contents") or []:
            turns += content.get("role") == "model"
            for part in content.get("parts") or []:
                fr = part.get("functionResponse")
                if isinstance(fr, dict):
                    resp = fr.get("response") or {}
                    out.append((fr.get("name", ""), str(resp.get("result", resp.get("error", "")))))
    return turns, out


def _scripted(script: dict[str, dict[str, str]], question: str, which: str, fallback: str) -> str:
    for key, values in script.items():
        if key != "*" and key in question and which in values:
            return values[which]
    return script.get("*", {}).get(which, fallback)


def agent_script_with(agent_script: dict[str, dict[str, str]], plain: dict[str, str]) -> dict[str, dict[str, str]]:
    """The agents' script, with a plain script's answers as the image values it does not give
    (a plain answer is what a reader that reads the page right says)."""
    out = {k: dict(v) for k, v in agent_script.items()}   # the agents' own entries are looked up first
    for key, answer in plain.items():
        out.setdefault(key, {}).setdefault("image", answer)
    return out


def next_move(kind: str, turns: int, results: list[tuple[str, str]], script: dict[str, dict[str, str]],
              ) -> tuple[str, list[tuple[str, JSONObject]]]:
    """The agent's text and tool calls for its next turn (no calls: it ends without submitting)."""
    info: JSONObject = {}
    for name, text in results:
        if name == "document_info":
            try:
                info = json.loads(text)
            except ValueError:
                info = {}
    pages = range(1, int(info.get("page_count") or 1) + 1)
    question = str(info.get("question") or "")
    texts = "\n".join(t for n, t in results if n == "page_text")
    if kind == "loop":
        return "Let me read page 1 once more.", [("page_text", {"page": 1})]
    if turns == 0:
        return "I will look at the document first.", [("document_info", {})]
    if kind == "text":
        if turns == 1:
            return "Reading the text layer.", [("page_text", {"page": p}) for p in pages]
        return "Submitting.", [("submit_extraction", {"answer": _scripted(script, question, "text", texts.strip())})]
    if kind == "image":
        if turns == 1:
            return "Looking at the pages.", [("page_image", {"page": p, "dpi": 150}) for p in pages]
        return "Submitting.", [("submit_extraction",
                                {"answer": _scripted(script, question, "image", "(nothing scripted)")})]
    if kind == "twice":
        return "Submitting twice.", [
            ("submit_extraction", {"answer": _scripted(script, question, "image", "first")}),
            ("submit_extraction", {"answer": _scripted(script, question, "text", "second")})]
    if kind == "deep":
        if turns == 1:
            nested: list = []
            for _ in range(DEEP - 1):
                nested = [nested]
            return "Submitting.", [("submit_extraction", {"answer": nested})]
        return "That was my answer.", []
    if kind == "badjson":
        if turns == 1:
            return "Submitting.", [("submit_extraction", {"answer": "{\"total\": 12.5, oops"})]
        return "I cannot produce valid JSON.", []
    return f"unknown scripted agent {kind!r}", []


def agent_reply(fmt: str, model: str, body: JSONObject, n: int, script: dict[str, dict[str, str]],
                in_tokens: int, loop_s: float) -> JSONObject:
    """The scripted agent's answer to one request, in `fmt`'s wire format."""
    kind = model.partition("+")[0].removeprefix("agent-")
    turns, results = _results(fmt, body)
    if kind == "loop" and loop_s:
        time.sleep(loop_s)
    text, calls = next_move(kind, turns, results, script)
    out_tokens = max(1, len(text) // 4) + 20 * len(calls)
    if fmt == "openai":
        tool_calls = [{"id": f"call_{n}_{i}", "type": "function",
                       "function": {"name": name, "arguments": json.dumps(args)}}
                      for i, (name, args) in enumerate(calls)]
        msg: JSONObject = {"role": "assistant", "content": text, "refusal": None}
        if tool_calls:
            msg["tool_calls"] = tool_calls
        return {"id": f"chatcmpl-fake{n}", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if calls else "stop"}],
                "usage": {"prompt_tokens": in_tokens, "completion_tokens": out_tokens,
                          "total_tokens": in_tokens + out_tokens}}
    if fmt == "anthropic":
        content: list[JSONObject] = [{"type": "text", "text": text}]
        content += [{"type": "tool_use", "id": f"toolu_{n}_{i}", "name": name, "input": args}
                    for i, (name, args) in enumerate(calls)]
        return {"id": f"msg_fake{n}", "type": "message", "role": "assistant", "model": model, "content": content,
                "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": in_tokens, "output_tokens": out_tokens}}
    parts: list[JSONObject] = [{"text": text}]
    parts += [{"functionCall": {"name": name, "args": args}} for name, args in calls]
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": in_tokens, "candidatesTokenCount": out_tokens,
                              "totalTokenCount": in_tokens + out_tokens},
            "modelVersion": model, "responseId": f"fake{n}"}
