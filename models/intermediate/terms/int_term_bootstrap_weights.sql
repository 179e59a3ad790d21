-- Observed (replicate -1) and bootstrap weights of every term cell, over var term_bootstrap_resamples
-- replicates (at most var bootstrap_resamples). Each group and term is resampled on its own (its pairs, or the
-- patients of its pairs: var bootstrap_unit), so the cost is O(B x cells), not O(B x pairs). A view: read once.

{{ config(materialized='view') }}

{{ bootstrap_cell_weights(ref('int_term_pair_cells'),
                          n_boot=[var('term_bootstrap_resamples') | int, var('bootstrap_resamples') | int] | min,
                          unit_columns=['unit_key', 'dataset', 'model', 'generator', 'setting', 'term'],
                          single_unit_column='unit_is_pair', salt='term_associations') }}
