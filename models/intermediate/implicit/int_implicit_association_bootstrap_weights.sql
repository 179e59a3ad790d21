-- Resampling weight of every word-association cell in every bootstrap replicate (replicate -1: observed),
-- B = var implicit_bootstrap_resamples (default 2000, as in the paper). See macros/bootstrap/poisson_bootstrap.sql.

{{ bootstrap_cell_weights(ref('int_implicit_association_units'), n_boot=var('implicit_bootstrap_resamples')) }}
