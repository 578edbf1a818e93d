"""`run --dry-run` (workbench/cli/costs.py) for the readers that cost nothing or cannot take the
request: a probe's dry run counts its calls and says it costs nothing; a PDF sent to a local
server that takes page images is refused in one line. (Token and money estimates of model and
agent readers: tests/grading/test_cost.py.)"""

from __future__ import annotations

from tests.support.cli import printed_json, refused


def test_a_probes_dry_run_counts_its_calls_and_costs_nothing(command, suite):
    code, out, err = command("run", suite, "--reader", "probe:pypdf", "--dry-run")
    assert code == 0, err
    assert out.splitlines() == ["dry run: probe:pypdf (text), 2 calls live (0 finished before); nothing is sent",
                                "  a probe runs here: no tokens, no cost"]
    plan = printed_json(command("run", suite, "--reader", "probe:pypdf", "--dry-run", "--json"))
    assert (plan["calls"], plan["cases"], plan["input_tokens"], plan["cost"], plan["per_call"]) == (2, 2, 0, None, [])
    assert not (suite / "runs").exists()


def test_a_pdf_for_a_server_that_takes_page_images_is_refused(command, suite):
    refused(command("run", suite, "--reader", "ollama:llava", "--modality", "pdf", "--dry-run"),
            "ollama takes page images, not PDF files: use --modality pixels or text")
