"""The patient-data guard: credentialed records never leave this machine unless the user says so.

MIMIC-IV (PhysioNet credentialed access) and the Bordeaux extract may not be sent to a third party. A backend
declares `is_local`; for these data sets a backend whose `is_local` is False (an OpenAI-compatible endpoint on
another host) is refused unless the caller passes `allow_remote=True` (the CLI's `--allow-remote`), and the
decision is returned so that the run records it in its parameters.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from biasmirror.backends.base import ChatBackend
from biasmirror.url_secrets import public_url

CREDENTIALED_DATASETS: frozenset[str] = frozenset({"mimic", "bordeaux"})


class RemoteBackendRefused(ValueError):
    """A credentialed data set would be sent to a host other than this machine without permission."""


@dataclass(frozen=True)
class GuardDecision:
    dataset: str
    credentialed: bool
    backend_is_local: bool
    allow_remote: bool
    sends_patient_text_off_machine: bool

    def as_parameters(self) -> dict[str, Any]:
        return asdict(self)


def check_patient_data_guard(dataset: str, backend: ChatBackend, allow_remote: bool = False) -> GuardDecision:
    """Refuse (RemoteBackendRefused) to send a credentialed data set to a non-local backend without permission."""
    credentialed = dataset.lower() in CREDENTIALED_DATASETS
    is_local = bool(getattr(backend, "is_local", False))
    if credentialed and not is_local and not allow_remote:
        url = getattr(backend, "shown_url", None) or getattr(backend, "base_url", None)
        where = public_url(url) if url else "a host other than this machine"
        raise RemoteBackendRefused(
            f"Refusing to send {dataset} records to the {backend.name} backend at {where}: {dataset} is "
            "credentialed patient data and may only be processed on this machine. Use a local backend "
            "(transformers, vllm, or an OpenAI-compatible server on localhost), or, if your data use agreement "
            "allows this endpoint, pass --allow-remote (the permission is recorded in the run's parameters)."
        )
    return GuardDecision(dataset=dataset, credentialed=credentialed, backend_is_local=is_local,
                         allow_remote=bool(allow_remote),
                         sends_patient_text_off_machine=credentialed and not is_local)
