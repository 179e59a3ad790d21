-- Resampling weight of every (group, sex, predicted level) cell in every bootstrap replicate (replicate -1: observed).

{{ bootstrap_cell_weights(ref('int_sex_gap_records')) }}
