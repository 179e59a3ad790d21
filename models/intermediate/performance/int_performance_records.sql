-- One row per data set, model, setting and test record with a documented level: the level predicted for the
-- original record (the same for every counterfactual generator) against the documented one.

with pairs as (
    select * from {{ ref('int_pairs_unioned') }}
    where true_level is not null
),

records as (
    select distinct dataset, model, setting, pair_id as record_id, unit_key, true_level, original_level as predicted_level
    from pairs
)

select
    *,
    dense_rank() over (order by dataset, model, setting, true_level, predicted_level) as cell_id
from records
