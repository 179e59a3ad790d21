"""Counterfactual (sex-swapped) copies of patient records for bias audits."""
