-- Every paired metric in every bootstrap replicate (replicate -1: the observed pairs), per data set, model,
-- generator, setting and stratum. audit.paired_metrics summarises it; it is kept so that other intervals
-- (or the bootstrap's standard errors) can be computed from the same replicates.

{%- set metrics = paired_metric_expressions() %}

with cells as (
    select
        *,
        -- an integer per group and stratum: the sums below group B x cells rows by it, not by six strings
        dense_rank() over (order by dataset, model, generator, setting, stratum_name, stratum_value) as group_id
    from {{ ref('int_pair_cells') }}
),

groups as (
    select distinct group_id, dataset, model, generator, setting, stratum_name, stratum_value
    from cells
),

sums as (
    select
        cells.group_id,
        weights.replicate,
        {{ paired_metric_sums('weights.weight') }}
    from {{ ref('int_pair_bootstrap_weights') }} as weights
    inner join cells using (cell_id)
    group by cells.group_id, weights.replicate
),

replicate_metrics as (
    select
        groups.dataset, groups.model, groups.generator, groups.setting, groups.stratum_name, groups.stratum_value,
        sums.replicate, sums.n_pairs_w,
        {%- for name, expression in metrics.items() %}
        {{ expression }} as {{ name }}{{ "," if not loop.last }}
        {%- endfor %}
    from sums
    inner join groups using (group_id)
)

select * from replicate_metrics
