-- Resampling weight of every cell in every bootstrap replicate (replicate -1: the observed counts).
-- The O(B x N) step of the audit; see macros/bootstrap/poisson_bootstrap.sql.

{{ bootstrap_cell_weights(ref('int_pair_cells')) }}
