"""Placeholder: Spanish agreement analysis (filled in below)."""

def analyse(text):
    return []
