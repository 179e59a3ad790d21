-- Resampling weight of every cell in every bootstrap replicate (replicate -1: the observed counts). Each stratum
-- is resampled on its own: within a stratum, a pair has the same multiplicity in every model, generator and
-- setting (one exact Poisson(n) draw per group of pairs whose cells agree everywhere), so differences between
-- models or settings are bootstrapped as paired; see macros/bootstrap/poisson_bootstrap.sql.

{{ bootstrap_cell_weights(ref('int_pair_cell_members'), unit_columns=['unit_key', 'stratum_id']) }}
