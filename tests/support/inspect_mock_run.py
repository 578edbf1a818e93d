"""Run an exported Inspect task through Inspect AI's mock model (no network), scripted per case.

    python tests/support/inspect_mock_run.py TASK_DIR LOG_DIR ANSWERS.json

ANSWERS.json maps case id -> the answer the mock model gives for that case's PDF. Prints the log
file's path. The mock's token usage is set, so Inspect never counts tokens with tiktoken (whose
encoding it would download).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ContentDocument, ModelOutput, ModelUsage, get_model


def main(task_dir: str, log_dir: str, answers_file: str) -> None:
    answers = json.loads(Path(answers_file).read_text())
    log_dir = os.path.abspath(log_dir)
    os.chdir(task_dir)  # Inspect takes a task file relative to the working folder

    def reply(messages, tools, tool_choice, config):
        docs = [c for m in messages for c in (m.content if isinstance(m.content, list) else [])
                if isinstance(c, ContentDocument)]
        assert docs and docs[0].document.startswith("data:application/pdf;base64,"), "no PDF sent"
        out = ModelOutput.from_content("mockllm/model", answers[Path(docs[0].filename).stem])
        out.usage = ModelUsage(input_tokens=1000, output_tokens=8, total_tokens=1008)
        return out

    model = get_model("mockllm/model", custom_outputs=reply)
    (log,) = inspect_eval("task.py", model=model, log_dir=log_dir, log_format="json", display="none")
    if log.status != "success":
        sys.exit(f"inspect eval ended {log.status}: {log.error}")
    print(log.location)


if __name__ == "__main__":
    main(*sys.argv[1:4])
