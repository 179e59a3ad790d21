-- Resampling weight of every confusion-matrix cell in every bootstrap replicate (replicate -1: observed).

{{ bootstrap_cell_weights(ref('int_performance_records')) }}
