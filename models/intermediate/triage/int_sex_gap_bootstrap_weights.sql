-- Resampling weight of every (group, sex, predicted level) cell in every bootstrap replicate (replicate -1:
-- observed). Each data set, model and setting is resampled on its own: test records alone, or patients with all
-- their records (var bootstrap_unit), so a group's joint cells are its cells plus its patients' distinct multisets
-- of cells.

{{ bootstrap_cell_weights(ref('int_sex_gap_records'), unit_columns=['unit_key', 'dataset', 'model', 'setting'],
                          single_unit_column='unit_is_pair', salt='sex_gap') }}
