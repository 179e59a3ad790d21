-- Every paired metric in every bootstrap replicate (replicate -1: the observed pairs), per data set, model,
-- generator, setting and stratum. audit.paired_metrics summarises it; it is kept so that other intervals
-- (or the bootstrap's standard errors) can be computed from the same replicates.

{%- set metrics = paired_metric_expressions() %}

with weights as (
    select * from {{ ref('int_pair_bootstrap_weights') }}
),

cells as (
    select * from {{ ref('int_pair_cell_strata') }}
),

sums as (
    select
        cells.dataset,
        cells.model,
        cells.generator,
        cells.setting,
        cells.stratum_name,
        cells.stratum_value,
        weights.replicate,
        {{ paired_metric_sums('weights.weight') }}
    from weights
    inner join cells using (cell_id)
    group by all
),

replicate_metrics as (
    select
        dataset, model, generator, setting, stratum_name, stratum_value, replicate, n_pairs_w,
        {%- for name, expression in metrics.items() %}
        {{ expression }} as {{ name }}{{ "," if not loop.last }}
        {%- endfor %}
    from sums
)

select * from replicate_metrics
