-- Resampling weight of every confusion-matrix cell in every bootstrap replicate (replicate -1: observed). Each
-- data set, model and setting is resampled on its own (test records alone, or patients with all their records:
-- var bootstrap_unit), so a group's joint cells are its confusion cells plus its patients' distinct multisets of
-- cells. A view: read once, by audit.model_performance.

{{ config(materialized='view') }}

{{ bootstrap_cell_weights(ref('int_performance_records'), unit_columns=['unit_key', 'dataset', 'model', 'setting'],
                          single_unit_column='unit_is_pair', salt='model_performance') }}
