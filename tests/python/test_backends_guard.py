"""The patient-data guard: credentialed data sets never go to a non-local backend without --allow-remote."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from biasmirror.backends.guard import CREDENTIALED_DATASETS, RemoteBackendRefused, check_patient_data_guard
from biasmirror.backends.openai_backend import OpenAIBackend
from biasmirror.cli import app
from biasmirror.counterfactuals.generate import LlmSpec, generate_counterfactuals

# TEST-NET-1 (RFC 5737): never routed, so nothing could be sent even if the guard failed open.
REMOTE = "http://192.0.2.123:8000/v1"
LOCAL = "http://127.0.0.1:8000/v1"


@pytest.mark.parametrize("dataset", ["mimic", "bordeaux", "MIMIC"])
def test_credentialed_data_to_a_remote_endpoint_is_refused(dataset: str) -> None:
    with pytest.raises(RemoteBackendRefused, match="--allow-remote") as error:
        check_patient_data_guard(dataset, OpenAIBackend("m", base_url=REMOTE))
    assert "192.0.2.123" in str(error.value) and "credentialed" in str(error.value)


def test_allowance_and_local_backends_are_recorded() -> None:
    allowed = check_patient_data_guard("mimic", OpenAIBackend("m", base_url=REMOTE), allow_remote=True)
    assert allowed.as_parameters() == {"dataset": "mimic", "credentialed": True, "backend_is_local": False,
                                       "allow_remote": True, "sends_patient_text_off_machine": True}
    local = check_patient_data_guard("mimic", OpenAIBackend("m", base_url=LOCAL))
    assert local.backend_is_local and not local.sends_patient_text_off_machine
    public = check_patient_data_guard("my_synthetic_set", OpenAIBackend("m", base_url=REMOTE))
    assert not public.credentialed and not public.sends_patient_text_off_machine
    assert CREDENTIALED_DATASETS == {"mimic", "bordeaux"}


def test_generation_is_refused_before_any_record_is_read_or_sent(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BIASMIRROR_WAREHOUSE", str(tmp_path / "none.duckdb"))  # no warehouse at all
    started = time.perf_counter()
    with pytest.raises(RemoteBackendRefused):
        generate_counterfactuals("mimic", "llm", llm=LlmSpec("openai", "m", options={"base_url": REMOTE, "timeout": 30}))
    assert time.perf_counter() - started < 20  # refused up front, not after the 30 s network timeout
    assert not (tmp_path / "none.duckdb").exists()


def test_cli_refuses_with_a_message_and_no_traceback(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BIASMIRROR_WAREHOUSE", str(tmp_path / "none.duckdb"))
    result = CliRunner().invoke(app, ["counterfactuals", "--dataset", "bordeaux", "--generator", "llm", "--backend",
                                      "openai", "--model", "m", "--option", f"base_url={REMOTE}"])
    assert result.exit_code == 1
    assert "Refusing to send bordeaux records" in result.output and "Traceback" not in result.output
