"""Placeholder."""

def analyse(text):
    return []
