"""The implicit-bias study on a real model: `biasmirror implicit associations` and `implicit allocation --limit`
against the test session's local vLLM server (127.0.0.1; conftest's vllm_server) on SmolLM2-135M-Instruct, through the openai backend,
with free and with constrained decoding (vLLM structured outputs).

* Every answer is stored with a parse status and whether decoding was constrained; the run records it.
* Constrained answers are in the prompt's format: every association answer assigns every word in the order shown
  with one of the two group words, every allocation answer tags one of the two candidates' full names.
* Sampling (temperature > 0) gives each trial its own seed, and the same seed draws the same answer again.

Needs the vLLM environment (`make vllm`): skipped without it, failed without it under CI (`make test-vllm`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from vllm_server import SERVED_BASE
from warehouse_workspace import Workspace

pytestmark = [pytest.mark.vllm, pytest.mark.slow]

CATEGORY = "risk"
ITERATIONS = 2
PAIRS = 3  # --limit 6: three whole pairs, both orders


@pytest.fixture(scope="module")
def server(vllm_server):
    return vllm_server


def invoke(workspace: Workspace, server, *arguments: str) -> str:
    from biasmirror.cli import app

    with workspace.active():
        result = CliRunner().invoke(app, ["implicit", *arguments, "--backend", "openai", "--model", SERVED_BASE,
                                          "--option", f"base_url={server.base_url}", "--max-tokens", "160"])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def answered(server, module_workspace: Workspace) -> Workspace:
    for label, extra in (("smol-free", []), ("smol-constrained", ["--constrained"])):
        invoke(module_workspace, server, "associations", "--label", label, "--category", CATEGORY,
               "--iterations", str(ITERATIONS), *extra)
        invoke(module_workspace, server, "allocation", "--label", label, "--language", "en", "--discipline", "hiv",
               "--explanation", "--no-symptoms", "--limit", str(2 * PAIRS), *extra)
        invoke(module_workspace, server, "allocation", "--label", label, "--language", "es", "--discipline", "hiv",
               "--no-explanation", "--no-symptoms", "--limit", str(2 * PAIRS), *extra)
    return module_workspace


def test_answers_are_stored_with_parse_statuses_and_the_decoding(answered: Workspace) -> None:
    words = answered.query("select model, constrained, parse_status, n_words, n_assigned, response_text "
                           "from inference.implicit_association_responses")
    allocation = answered.query("select model, language, constrained, parse_status, response_text "
                                "from inference.implicit_allocation_responses")
    for label, constrained in (("smol-free", False), ("smol-constrained", True)):
        mine = words[words.model == label]
        assert len(mine) == 2 * ITERATIONS and (mine.constrained == constrained).all()
        assert mine.parse_status.isin(["ok", "partial", "refused", "unparsed"]).all()
        assert (mine.response_text.str.len() > 0).all()
        chosen = allocation[allocation.model == label]
        assert len(chosen) == 2 * 2 * PAIRS and (chosen.constrained == constrained).all()
        assert chosen.parse_status.isin(["ok", "untagged", "refused", "unparsed"]).all()
    runs = answered.query("select model, kind, parameters from inference.runs where kind like 'implicit%'")
    for model, parameters in zip(runs.model, runs.parameters):
        assert json.loads(parameters)["constrained_decoding"] == (model == "smol-constrained")
        assert json.loads(parameters)["backend"] == "openai"


def test_constrained_answers_follow_the_format(answered: Workspace) -> None:
    words = answered.query("select r.response_text, r.parse_status, r.n_words, r.n_assigned, r.language, r.iteration, "
                           "r.group_order from inference.implicit_association_responses r where model = 'smol-constrained'")
    assert (words.parse_status == "ok").all() and (words.n_assigned == words.n_words).all()
    shown = answered.query("select language, iteration, position, word from inference.implicit_association_assignments "
                           "where model = 'smol-constrained' order by language, iteration, position")
    for row in words.itertuples():
        lines = row.response_text.split("\n")
        expected = shown[(shown.language == row.language) & (shown.iteration == row.iteration)].word.tolist()
        assert [line.rsplit(" - ", 1)[0] for line in lines] == expected
    allocation = answered.query("select response_text, parse_status, explanation, chosen_persona_id, cis_persona_id, "
                                "trans_persona_id from inference.implicit_allocation_responses "
                                "where model = 'smol-constrained'")
    assert (allocation.parse_status == "ok").all()
    assert (allocation.chosen_persona_id.eq(allocation.cis_persona_id)
            | allocation.chosen_persona_id.eq(allocation.trans_persona_id)).all()
    for row in allocation.itertuples():
        pattern = r"<reasoning>[^<>]+</reasoning>\n<person>[^<>]+</person>" if row.explanation else r"<person>[^<>]+</person>"
        assert re.fullmatch(pattern, row.response_text), row.response_text


def test_sampling_seeds_each_trial_and_repeats_with_the_same_seed(server, answered: Workspace, tmp_path: Path) -> None:
    # one request at a time: each answer is drawn alone in its batch, so the same seed meets the same logits
    arguments = ["associations", "--category", CATEGORY, "--iterations", str(ITERATIONS), "--language", "en",
                 "--temperature", "1.0", "--seed", "7", "--no-cache", "--option", "concurrency=1"]
    invoke(answered, server, *arguments, "--label", "smol-sampled-a")
    invoke(answered, server, *arguments, "--label", "smol-sampled-b")
    sampled = answered.query("select model, iteration, seed, temperature, response_text from "
                             "inference.implicit_association_responses where model like 'smol-sampled-%' "
                             "order by model, iteration")
    a, b = (sampled[sampled.model == f"smol-sampled-{x}"].reset_index(drop=True) for x in "ab")
    assert (a.temperature == 1.0).all() and a.seed.nunique() == ITERATIONS and a.seed.tolist() == b.seed.tolist()
    assert a.response_text.tolist() == b.response_text.tolist()  # the same trial seed draws the same answer
