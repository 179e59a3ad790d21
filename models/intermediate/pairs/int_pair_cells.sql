-- The cells of the paired metrics, one row per cell: the pairs of a cell share data set, model, generator,
-- setting, stratum, direction and level change (delta), so every paired metric of a stratum is a function of
-- its cells' weighted counts and the bootstrap draws weights per cell (int_pair_bootstrap_weights) instead of
-- per pair. There are a few hundred cells however many pairs there are.

with pair_strata as (
    select pairs.dataset, pairs.model, pairs.generator, pairs.setting, strata.stratum_name, strata.stratum_value,
           pairs.direction, pairs.delta
    from {{ ref('int_pairs_unioned') }} as pairs
    inner join {{ ref('int_pair_strata') }} as strata using (dataset, model, generator, setting, pair_id)
),

cells as (
    select distinct dataset, model, generator, setting, stratum_name, stratum_value, direction, delta
    from pair_strata
)

select
    row_number() over (
        order by dataset, model, generator, setting, stratum_name, stratum_value, direction, delta
    ) as cell_id,
    -- the stratum alone (the same in every model, generator and setting): each stratum is resampled on its own
    dense_rank() over (order by stratum_name, stratum_value) as stratum_id,
    dataset,
    model,
    generator,
    setting,
    stratum_name,
    stratum_value,
    direction,
    delta,
    {{ paired_indicator_columns() }}
from cells
