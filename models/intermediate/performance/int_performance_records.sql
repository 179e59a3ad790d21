-- One row per data set, model, setting and test record with a documented level: the level predicted for the
-- original record (the same for every counterfactual generator) against the documented one, and its
-- confusion-matrix cell (data set, model, setting, documented level, predicted level).

with records as (
    -- the warehouse's own pairs repeat a record once per counterfactual generator; an import has one generator
    select distinct dataset, model, setting, pair_id as record_id, unit_key, unit_is_pair, true_level,
           original_level as predicted_level
    from {{ ref('int_pairs_unioned') }}
    where true_level is not null and pair_source = 'model_inputs'
    union all
    select dataset, model, setting, pair_id, unit_key, unit_is_pair, true_level, original_level
    from {{ ref('int_pairs_unioned') }}
    where true_level is not null and pair_source = 'import'
),

-- number the few distinct cells, then join the numbers back (cheaper than ranking every record)
cells as (
    select *, row_number() over (order by dataset, model, setting, true_level, predicted_level) as cell_id
    from (select distinct dataset, model, setting, true_level, predicted_level from records) as distinct_cells
)

select records.*, cells.cell_id
from records
inner join cells using (dataset, model, setting, true_level, predicted_level)
