-- Observed (replicate -1) and bootstrap weights of every term cell, over var term_bootstrap_resamples
-- replicates (at most var bootstrap_resamples). Each term is resampled on its own (its pairs, with the same
-- multiplicity in every model, generator and setting), so the cost is O(B x cells), not O(B x pairs).

{{ bootstrap_cell_weights(ref('int_term_pair_cells'),
                          n_boot=[var('term_bootstrap_resamples') | int, var('bootstrap_resamples') | int] | min,
                          unit_columns=['unit_key', 'term']) }}
