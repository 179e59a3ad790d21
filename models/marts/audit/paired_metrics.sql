-- The paired metrics of docs/metrics.md with percentile bootstrap confidence intervals (pairs, or patients with
-- all their pairs, resampled: var bootstrap_unit), one row per data set, model, generator, setting, stratum and
-- metric. n_changed: the changed pairs the metric is estimated from (macro paired_metric_changes); is_sparse flags
-- an interval that cannot be read as a 95% interval (too few changed pairs, none, or zero width).

{%- set changes = paired_metric_changes() %}
{%- set groups = ['dataset', 'model', 'generator', 'setting', 'stratum_name', 'stratum_value'] %}

with summary as (
    {{ summarise_replicates(ref('int_paired_metric_replicates'), groups,
                            paired_metric_expressions().keys() | list, 'n_pairs_w', 'n_pairs') | indent(4) }}
),

observed as (
    select
        {{ groups | join(', ') }},
        {%- for name, expression in changes.items() %}
        {{ expression }} as changes_{{ loop.index }}{{ "," if not loop.last }}
        {%- endfor %}
    from {{ ref('int_paired_metric_replicates') }}
    where replicate = -1
),

counted as (
    select
        summary.*,
        cast(case summary.metric
            {%- for name in changes.keys() %}
            when '{{ name }}' then observed.changes_{{ loop.index }}
            {%- endfor %}
        end as bigint) as n_changed
    from summary
    inner join observed using ({{ groups | join(', ') }})
)

select
    dataset, model, generator, setting, stratum_name, stratum_value, metric, estimate, ci_low, ci_high, n_pairs,
    n_boot,
    n_pairs < {{ var('min_stratum_pairs') }} as is_small_stratum,
    n_changed,
    {{ sparse_interval_flag('n_changed', 'ci_low', 'ci_high') }} as is_sparse,
    metric_order
from counted
