"""The holes an attacker found (issue 25), each kept shut by a test that failed before the fix: what the
OpenAI-compatible backend sends where (proxies, redirects, Ctrl-C), what is stored or printed from an answer
or a URL, and the checks on the environment. The tests that need a dbt build are in test_attacker_builds.py."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from biasmirror.backends.base import ChatMessage, GenerationRequest
from biasmirror.backends.failures import FailureTally
from biasmirror.backends.openai_backend import OpenAIBackend
from local_openai_server import LocalChatServer, completion

RECORD = "PATIENT 4471: 58-year-old woman, crushing chest pain radiating to the left arm since 06:10"


def request(text: str = RECORD) -> GenerationRequest:
    return GenerationRequest((ChatMessage("system", "rewrite the record"), ChatMessage("user", text)))


class Recorder:
    """An HTTP server on 127.0.0.1 that records the method, path, headers and body of whatever reaches it (a
    proxy, or the host a redirect points at) and answers each request with `answer(handler)`."""

    def __init__(self, answer: Any = None) -> None:
        self.seen: list[dict[str, Any]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                length = int(self.headers.get("Content-Length", 0) or 0)
                recorder.seen.append({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                      "body": self.rfile.read(length).decode("utf-8", "replace")})
                status, headers, data = (answer or (lambda h: (200, {"Content-Type": "application/json"},
                                                               json.dumps(completion("via recorder")).encode())))(self)
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = _any  # noqa: N815 - http.server API

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    def __enter__(self) -> "Recorder":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()


# -- where requests go -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("variable", ["http_proxy", "HTTP_PROXY", "all_proxy"])
def test_a_loopback_endpoint_never_goes_through_a_proxy(monkeypatch: pytest.MonkeyPatch, variable: str) -> None:
    for name in ("no_proxy", "NO_PROXY", "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                 "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    with Recorder() as proxy, LocalChatServer(lambda b, n: (200, completion("direct"), 0.0)) as server:
        monkeypatch.setenv(variable, f"http://127.0.0.1:{proxy.port}")
        backend = OpenAIBackend("m", base_url=server.url, max_retries=0, timeout=5)
        assert backend.is_local  # what the patient-data guard relies on
        (answer,) = backend.generate([request()])
    assert proxy.seen == [], "the record went to the proxy"
    assert answer.text == "direct" and len(server.bodies) == 1


def test_a_redirect_to_another_host_is_refused_with_the_credentials_kept_home() -> None:
    with Recorder() as elsewhere:
        target = f"http://localhost:{elsewhere.port}/v1/chat/completions"  # another host name and port
        with Recorder(lambda h: (302, {"Location": target}, b"")) as endpoint:
            backend = OpenAIBackend("m", base_url=f"http://127.0.0.1:{endpoint.port}/v1", api_key="sk-live-42",
                                    max_retries=2, backoff=0.01, timeout=5)
            (answer,) = backend.generate([request()])
    assert elsewhere.seen == [], "the redirect was followed (with the Authorization header)"
    assert len(endpoint.seen) == 1  # refused at once, not retried
    assert answer.finish_reason == "error" and answer.failure.reason == "redirect to another host"
    assert answer.failure.http_status == 302 and "another host" in answer.error and "localhost" in answer.error
    assert "sk-live-42" not in answer.error


def test_ctrl_c_stops_sending_within_seconds(interruptible) -> None:
    """Twenty slow requests on two threads, a server that fails them with a retryable 503 after 0.4 s: Ctrl-C
    after a second. Before the fix, the pool kept sending and retrying every request for a minute."""
    if not interruptible:  # it ran, and passed, in a fresh interpreter
        return
    with LocalChatServer(lambda b, n: (503, {"error": {"type": "overloaded"}}, 0.4)) as server:
        backend = OpenAIBackend("m", base_url=server.url, max_retries=3, backoff=0.5, timeout=5, concurrency=2)
        timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
        started = time.monotonic()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            backend.generate([request(f"{RECORD} #{i}") for i in range(20)])
        stopped = time.monotonic() - started
        sent = len(server.bodies)
        time.sleep(2.5)
        sent_later = len(server.bodies)
    timer.cancel()
    assert stopped < 2.5, f"generate returned {stopped:.1f} s after it started (Ctrl-C at 1 s)"
    assert sent_later == sent, f"{sent_later - sent} request(s) sent after Ctrl-C"
    assert sent <= 6


# -- nothing quoted from an answer, no secret stored -----------------------------------------------------------

def test_a_truncated_answer_is_described_never_quoted() -> None:
    truncated = json.dumps(completion("Patient is a 58-year-old man with crushing chest pain radiating"))[:-40]
    with LocalChatServer(lambda b, n: (200, truncated, 0.0)) as server:
        backend = OpenAIBackend("m", base_url=server.url, max_retries=0, timeout=5)
        (answer,) = backend.generate([request()])
    failure = answer.failure
    assert failure.reason == "non-JSON answer" and failure.body_chars == len(truncated.encode())
    assert failure.content_type == "application/json"
    tally = FailureTally()

    class Backend:
        name, model = "openai", "m"

    tally.add(run_id="r", backend=Backend(), key="k", generation=answer, dataset="d", item_id="1")
    printed = tally.explain("openai", "records", "r") + answer.error
    stored = json.dumps(tally.rows, default=str)
    for text in (printed, stored):
        assert "crushing" not in text and "58-year-old" not in text and "Patient" not in text
    assert f"{len(truncated.encode()):,} bytes" in printed
    assert "body_excerpt" not in tally.rows[0]


@pytest.mark.parametrize("url, public", [
    ("http://user:s3cret@127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
    ("https://gw.example.org/v1?api_key=AbC123&region=eu", "https://gw.example.org/v1?api_key=***&region=eu"),
    ("https://gw.example.org/v1?token=t0k&sig=zz&X-Amz-Signature=q", "https://gw.example.org/v1?token=***&sig=***&X-Amz-Signature=***"),
    ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
])
def test_public_url_strips_credentials_and_key_parameters(url: str, public: str) -> None:
    from biasmirror.url_secrets import public_url

    assert public_url(url) == public


def test_a_password_in_base_url_is_never_stored_in_a_run(workspace) -> None:
    from biasmirror.warehouse.connection import connect
    from biasmirror.warehouse.runs import recorded_run

    url = "http://alice:hunter2pw@127.0.0.1:9/v1?api_key=KEY-77&model=x"
    with workspace.active():
        with recorded_run("counterfactuals", {"backend_options": {"base_url": url, "api_key": "***"},
                                              "note": f"server {url}"}, dataset="d") as run:
            run.details = {"endpoint": url}
        with connect(read_only=True, working=True) as con:
            (parameters,) = con.execute("select parameters from inference.runs where run_id = ?",
                                        [run.run_id]).fetchone()
    assert "hunter2pw" not in parameters and "alice" not in parameters and "KEY-77" not in parameters
    stored = json.loads(parameters)
    assert stored["backend_options"]["base_url"] == "http://127.0.0.1:9/v1?api_key=***&model=x"
    assert stored["endpoint"] == stored["backend_options"]["base_url"]


def test_the_counterfactual_manifest_masks_key_options_but_keeps_max_tokens() -> None:
    from biasmirror.url_secrets import public_options

    options = {"base_url": "http://u:p@127.0.0.1:1/v1", "api_key": "sk", "max_tokens": 64, "access_token": "t"}
    assert public_options(options) == {"base_url": "http://127.0.0.1:1/v1", "api_key": "***", "max_tokens": 64,
                                       "access_token": "***"}


# -- the environment and the files a user gives ----------------------------------------------------------------

def pairs_csv(path, rows: int = 12, sexes: tuple[str, ...] = ("F", "M"), separator: str = ",",
              extra: dict[str, list[str]] | None = None):
    import pandas as pd

    frame = pd.DataFrame({"pair_id": [f"p{i}" for i in range(rows)],
                          "original_sex": [sexes[i % len(sexes)] for i in range(rows)],
                          "original_level": [1 + i % 4 for i in range(rows)],
                          "counterfactual_level": [1 + (i + i % 2) % 4 for i in range(rows)],
                          **(extra or {})})
    frame.to_csv(path, index=False, sep=separator)
    return path


def cli(workspace, *args: str, **env: str):
    from typer.testing import CliRunner

    from biasmirror.cli import app

    with workspace.active(**env):
        result = CliRunner().invoke(app, list(args))
    return result, " ".join(result.output.split())


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "soon"])
def test_a_lock_timeout_that_is_not_a_finite_number_is_refused(workspace, tmp_path, value: str) -> None:
    path = pairs_csv(tmp_path / "pairs.csv")
    result, output = cli(workspace, "import-pairs", str(path), "--dataset", "d", "--model", "m",
                         BIASMIRROR_LOCK_TIMEOUT=value)
    assert result.exit_code == 1, output
    assert "BIASMIRROR_LOCK_TIMEOUT" in output and "finite number" in output and "Traceback" not in output
    flag, flag_output = cli(workspace, "--lock-timeout", value, "import-pairs", str(path), "--dataset", "d",
                            "--model", "m")
    assert flag.exit_code == 2 and "--lock-timeout" in flag_output, flag_output


def test_a_huge_header_field_is_a_clear_error(workspace, tmp_path) -> None:
    path = tmp_path / "huge.csv"
    path.write_text("pair_id,original_sex,original_level," + "x" * 200_000 + "\np1,F,1,2\n")
    result, output = cli(workspace, "import-pairs", str(path), "--dataset", "d", "--model", "m")
    assert result.exit_code == 1, output
    assert "a field longer than 131,072 characters" in output and "Traceback" not in output
    assert "x" * 50 not in output


# -- the import, forget and hint messages (issue 25, item 6) ---------------------------------------------------

def test_female_and_male_are_read_as_f_and_m(workspace, tmp_path) -> None:
    path = pairs_csv(tmp_path / "words.csv", sexes=("female", "Male", " FEMALE ", "m"))
    result, output = cli(workspace, "import-pairs", str(path), "--dataset", "d", "--model", "m")
    assert result.exit_code == 0, output
    sexes = workspace.query("select original_sex, count(*) as n from inference.imported_pairs group by all")
    assert dict(zip(sexes.original_sex, sexes.n)) == {"F": 6, "M": 6}


def test_an_unknown_sex_code_is_refused_saying_what_is_accepted_and_what_was_found(workspace, tmp_path) -> None:
    path = pairs_csv(tmp_path / "codes.csv", sexes=("F", "W", "X"))
    result, output = cli(workspace, "import-pairs", str(path), "--dataset", "d", "--model", "m")
    assert result.exit_code == 1
    assert "F, M, female, male" in output and "'W', 'X'" in output


def test_a_semicolon_separated_file_gets_a_separator_hint(workspace, tmp_path) -> None:
    path = pairs_csv(tmp_path / "excel.csv", separator=";")
    result, output = cli(workspace, "import-pairs", str(path), "--dataset", "d", "--model", "m")
    assert result.exit_code == 1
    assert "separates its columns with semicolons" in output and "header row" not in output


def test_a_capitalised_stratum_column_is_a_stratum(workspace, tmp_path) -> None:
    path = pairs_csv(tmp_path / "strata.csv", extra={"Stratum_Site": ["a", "b"] * 6, "Pair_ID_note": ["x"] * 12})
    result, output = cli(workspace, "import-pairs", str(path), "--dataset", "d", "--model", "m")
    assert result.exit_code == 0, output
    assert "strata: Site" in output and "Ignored column(s): Pair_ID_note" in output
    strata = workspace.query("select stratum_name, count(*) as n from inference.imported_pair_strata group by all")
    assert strata.stratum_name.tolist() == ["Site"] and strata.n.tolist() == [12]


def test_a_second_forget_does_not_list_the_forgotten_model(workspace, tmp_path) -> None:
    cli(workspace, "import-pairs", str(pairs_csv(tmp_path / "a.csv")), "--dataset", "d", "--model", "gone")
    cli(workspace, "import-pairs", str(pairs_csv(tmp_path / "b.csv")), "--dataset", "d", "--model", "stays")
    first, output = cli(workspace, "forget", "--dataset", "d", "--model", "gone", "--yes")
    assert first.exit_code == 0, output
    second, output = cli(workspace, "forget", "--dataset", "d", "--model", "gone", "--yes")
    assert second.exit_code == 1
    assert "models of 'd' there: 'stays'." in output


def test_summary_points_at_the_demo_warehouse_when_the_default_is_missing(tmp_path, monkeypatch) -> None:
    import duckdb
    from typer.testing import CliRunner

    from biasmirror.cli import app

    (tmp_path / "demo_data").mkdir()
    duckdb.connect(str(tmp_path / "demo_data" / "biasmirror.duckdb")).close()
    monkeypatch.chdir(tmp_path)
    for name in ("BIASMIRROR_WAREHOUSE", "BIASMIRROR_WORKING_COPY"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(app, ["summary"])
    output = " ".join(result.output.split())
    assert result.exit_code == 1
    assert "--warehouse demo_data/biasmirror.duckdb" in output and str(tmp_path / "demo_data") in output


@pytest.mark.parametrize("gap", [0.0, 0.05])
def test_a_second_sigterm_while_stopping_is_not_a_traceback(workspace, tmp_path, gap: float) -> None:
    """A command waiting for the writer lock gets SIGTERM twice (a scheduler that insists): one `interrupted`
    line and exit 130, no KeyboardInterrupt traceback."""
    import subprocess
    import sys

    from biasmirror.warehouse.lock import acquire, release

    path = pairs_csv(tmp_path / "pairs.csv")
    env = {**os.environ, "BIASMIRROR_WAREHOUSE": str(workspace.warehouse),
           "BIASMIRROR_WORKING_COPY": str(workspace.working), "BIASMIRROR_LOCK_TIMEOUT": "60"}
    acquire(workspace.working, command="test holder", timeout=0)
    try:
        process = subprocess.Popen([sys.executable, "-c", "from biasmirror.cli import main; main()", "import-pairs",
                                    str(path), "--dataset", "d", "--model", "m"], env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.2)
            if (workspace.working.parent / "writer.lock").exists() and time.monotonic() > deadline - 52:
                break  # the command had time to start and wait
        process.send_signal(signal.SIGTERM)
        time.sleep(gap)
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=60)
    finally:
        release(workspace.working)
    assert process.returncode == 130, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    assert output.rstrip().splitlines()[-1].startswith("interrupted"), output
