-- The cells of the paired metrics, one row per cell: the pairs of a cell share data set, model, generator,
-- setting, stratum, direction and level change (delta), so every paired metric of a stratum is a function of
-- its cells' counts (n_pairs, observed) or bootstrap weights. There are a few hundred cells however many pairs
-- there are. n_single_pairs counts the cell's pairs resampled on their own (unit_is_pair); the others belong to
-- patients resampled with all their pairs (var bootstrap_unit).

with counts as (
    select
        group_id,
        stratum_id,
        stratum_name,
        stratum_value,
        direction,
        delta,
        count(*) as n_pairs,
        count(case when unit_is_pair then 1 end) as n_single_pairs
    from {{ ref('int_pair_members') }}
    group by group_id, stratum_id, stratum_name, stratum_value, direction, delta
)

select
    row_number() over (
        order by groups.dataset, groups.model, groups.generator, groups.setting, counts.stratum_name,
                 counts.stratum_value, counts.direction, counts.delta
    ) as cell_id,
    counts.group_id,
    counts.stratum_id,
    groups.dataset,
    groups.model,
    groups.generator,
    groups.setting,
    counts.stratum_name,
    counts.stratum_value,
    counts.direction,
    counts.delta,
    counts.n_pairs,
    counts.n_single_pairs,
    {{ paired_indicator_columns('counts.direction', 'counts.delta') }}
from counts
inner join {{ ref('int_pair_groups') }} as groups using (group_id)
