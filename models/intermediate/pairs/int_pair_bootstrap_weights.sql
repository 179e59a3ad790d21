-- Resampling weight of every cell in every bootstrap replicate (replicate -1: the observed counts): one exact
-- Poisson(n) draw per group of pairs that share their cell in every model, generator and setting, so a pair's
-- multiplicity is the same everywhere; see macros/bootstrap/poisson_bootstrap.sql.

{{ bootstrap_cell_weights(ref('int_pair_cells')) }}
