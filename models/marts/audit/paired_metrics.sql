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

metric_names as (
    select * from (values
        {%- for name in metrics %}
        ({{ loop.index }}, '{{ name }}'){{ "," if not loop.last }}
        {%- endfor %}
    ) as names (metric_order, metric)
),

long_format as (
    select
        replicate_metrics.dataset, replicate_metrics.model, replicate_metrics.generator,
        replicate_metrics.setting, replicate_metrics.stratum_name, replicate_metrics.stratum_value,
        replicate_metrics.replicate, replicate_metrics.n_pairs_w,
        metric_names.metric_order, metric_names.metric,
        case metric_names.metric
            {%- for name in metrics %}
            when '{{ name }}' then {{ name }}
            {%- endfor %}
        end as value
    from replicate_metrics
    cross join metric_names
)

select
    dataset,
    model,
    generator,
    setting,
    stratum_name,
    stratum_value,
    metric,
    max(case when replicate = -1 then value end) as estimate,
    {{ percentile_ci_low('case when replicate >= 0 then value end') }} as ci_low,
    {{ percentile_ci_high('case when replicate >= 0 then value end') }} as ci_high,
    cast(max(case when replicate = -1 then n_pairs_w end) as bigint) as n_pairs,
    count(case when replicate >= 0 and value is not null then 1 end) as n_boot,
    max(case when replicate = -1 then n_pairs_w end) < {{ var('min_stratum_pairs') }} as is_small_stratum,
    min(metric_order) as metric_order
from long_format
group by dataset, model, generator, setting, stratum_name, stratum_value, metric
