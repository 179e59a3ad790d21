-- Observed (replicate -1) and bootstrap weights of every term cell, over var term_bootstrap_resamples
-- replicates (at most var bootstrap_resamples). A pair has one multiplicity per replicate across all of its
-- terms; pairs seldom share their whole set of terms, so this pass stays close to O(B x pairs).

{{ bootstrap_cell_weights(ref('int_term_pair_cells'),
                          n_boot=[var('term_bootstrap_resamples') | int, var('bootstrap_resamples') | int] | min) }}
