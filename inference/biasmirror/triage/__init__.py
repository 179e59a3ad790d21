"""Triage models: training on the cohort's train split and scoring model inputs."""
