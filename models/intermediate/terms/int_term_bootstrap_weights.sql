-- Observed (replicate -1) and bootstrap weights of every term cell. Each pair keeps the resampling weights it
-- has in the main pair bootstrap (same unit key), over the first var term_bootstrap_resamples replicates (at
-- most var bootstrap_resamples): the pass is O(B x term incidences), so the term bootstrap may use fewer.

{{ bootstrap_cell_weights(ref('int_term_pair_cells'),
                          n_boot=[var('term_bootstrap_resamples') | int, var('bootstrap_resamples') | int] | min) }}
