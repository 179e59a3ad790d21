-- The paired metrics of DESIGN.md section 4 with percentile bootstrap confidence intervals (pairs
-- resampled), one row per data set, model, generator, setting, stratum and metric.

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
),

summary as (
    {{ summarise_replicates('replicate_metrics',
                            ['dataset', 'model', 'generator', 'setting', 'stratum_name', 'stratum_value'],
                            metrics.keys() | list, 'n_pairs_w', 'n_pairs') | indent(4) }}
)

select
    summary.*,
    summary.n_pairs < {{ var('min_stratum_pairs') }} as is_small_stratum
from summary
