"""Helpers for tests and benchmarks: tiny, locally built models (nothing is downloaded)."""
