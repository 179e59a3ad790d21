"""Helpers for tests and benchmarks only (never imported by the package itself): the offline SmolLM2 model."""
