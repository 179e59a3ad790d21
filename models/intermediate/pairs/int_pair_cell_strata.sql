-- For each cell: its group, direction and levels, the indicator columns of the paired metrics, and every
-- stratum it belongs to (one row per stratum).

with cells as (
    select distinct cell_id, dataset, model, generator, setting, pair_id from {{ ref('int_pair_cells') }}
),

one_pair_per_cell as (
    select cell_id, any_value(pair_id) as pair_id, any_value(dataset) as dataset, any_value(model) as model,
           any_value(generator) as generator, any_value(setting) as setting
    from cells
    group by cell_id
),

pairs as (
    select * from {{ ref('int_pairs_unioned') }}
)

select
    one_pair_per_cell.cell_id,
    pairs.dataset,
    pairs.model,
    pairs.generator,
    pairs.setting,
    pairs.direction,
    pairs.original_level,
    pairs.counterfactual_level,
    {{ paired_indicator_columns() }},
    strata.stratum_name,
    strata.stratum_value
from one_pair_per_cell
inner join pairs using (dataset, model, generator, setting, pair_id)
inner join {{ ref('int_pair_strata') }} as strata using (dataset, model, generator, setting, pair_id)
