"""Equally correct spellings of a swapped copy (biasmirror.counterfactuals.spellings): what counts as the same."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.spellings import canonical, variants


def test_english_mother_and_title_variants_and_nothing_else() -> None:
    text = "Mrs ___ says her mum and two moms came; Mummy is in Mumbai."
    forms = variants("en", text)
    assert forms[0] == text
    assert "Ms ___ says her mom and two moms came; Mummy is in Mumbai." in forms
    assert "Mrs ___ says her mum and two mums came; Mummy is in Mumbai." in forms
    assert all("Mummy is in Mumbai" in form for form in forms)
    assert variants("en", "Ms ___ came with Dad.") == ["Ms ___ came with Dad."]  # "Ms" never becomes "Mrs"


@pytest.mark.parametrize("language, text", [
    ("en", "Mrs ___ and her Mom, Mum and moms."),
    ("es", "Es un varón de 50 años; el Hombre del box 2 es otro."),
    ("fr", "Madame ___ et sa maman."),
])
def test_every_variant_has_the_same_canonical_form(language: str, text: str) -> None:
    assert len({canonical(language, form) for form in variants(language, text)}) == 1


def test_canonical_keeps_what_differs() -> None:
    assert canonical("en", "Mr ___ and his dad.") != canonical("en", "Ms ___ and her mum.")
    assert canonical("es", "Es un hombre.") != canonical("es", "Es una mujer.")
    assert variants("es", "Es un hombre de 50 años.") == ["Es un hombre de 50 años.", "Es un varón de 50 años."]
    assert variants("fr", "Sa maman est là.") == ["Sa maman est là."]
