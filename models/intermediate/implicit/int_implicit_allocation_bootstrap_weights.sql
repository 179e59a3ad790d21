-- Resampling weight of every allocation cell in every bootstrap replicate (replicate -1: observed), pairs
-- resampled, B = var implicit_bootstrap_resamples. See macros/bootstrap/poisson_bootstrap.sql.

{{ bootstrap_cell_weights(ref('int_implicit_allocation_units'), n_boot=var('implicit_bootstrap_resamples')) }}
