"""The JSON value an answer gives, as the grader's fields and attribution's values read it.

An answer is a model's text, which may be anything: a ```json block, JSON after a sentence, JSON
cut short or nested thousands deep, or brackets that start no JSON at all.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

# Places an answer's JSON is looked for from, at most (each `{` or `[`, in order): a start that
# fails may be read to the answer's end (`[ [ [ 1,1,1,...`), so reading every one made an answer
# of 800 KB cost 6.5 s; a model's answer names a few brackets before its JSON, if any.
ANSWER_JSON_STARTS = 32


def parse_answer_json(text: str) -> Any | None:
    """The JSON value an answer gives: a ```json block, else the first object or array in it
    (from its first `ANSWER_JSON_STARTS` brackets). None when there is none, or when one nests
    past what the decoder reads (about a thousand levels)."""
    try:
        for m in re.finditer(r"```(?:json)?\s*(.*?)```", text, re.S | re.I):
            try:
                return json.loads(m.group(1))
            except json.JSONDecodeError:
                continue
        decoder = json.JSONDecoder()
        for start in itertools.islice(re.finditer(r"[{\[]", text), ANSWER_JSON_STARTS):
            try:
                return decoder.raw_decode(text, start.start())[0]
            except json.JSONDecodeError:
                continue
    except RecursionError:
        return None
    return None
