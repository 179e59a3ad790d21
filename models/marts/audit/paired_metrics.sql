-- The paired metrics of docs/metrics.md with percentile bootstrap confidence intervals (pairs, or patients with
-- all their pairs, resampled: var bootstrap_unit), one row per data set, model, generator, setting, stratum and
-- metric. n_changed: the changed pairs the metric is estimated from (macro paired_metric_changes); is_sparse flags
-- an interval that cannot be read as a 95% interval (too few changed pairs, none, or zero width). The metrics whose
-- no-bias value is zero (paired_signed_metrics) get a p-value from the bootstrap SE, a q-value adjusted over
-- their family (data set x model x generator x setting x stratum variable: every value and tested metric) and the
-- minimum detectable effect (macros/metrics/significance.sql).

{%- set changes = paired_metric_changes() %}
{%- set groups = ['dataset', 'model', 'generator', 'setting', 'stratum_name', 'stratum_value'] %}

with summary as (
    {{ summarise_replicates(ref('int_paired_metric_replicates'), groups,
                            paired_metric_expressions().keys() | list, 'n_pairs_w', 'n_pairs', with_se=true) | indent(4) }}
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
        end as bigint) as n_changed,
        summary.metric in ({% for name in paired_signed_metrics() %}'{{ name }}'{{ ", " if not loop.last }}{% endfor %}) as is_tested
    from summary
    inner join observed using ({{ groups | join(', ') }})
),

tested as (
    select
        counted.*,
        case when is_tested then {{ bootstrap_p_value('estimate', 'se') }} end as p_value,
        case when is_tested then {{ mde_multiplier() }} * se end as mde
    from counted
),

adjusted as (
    {{ adjusted_p_values('tested', ['dataset', 'model', 'generator', 'setting', 'stratum_name']) | indent(4) }}
)

select
    dataset, model, generator, setting, stratum_name, stratum_value, metric, estimate, ci_low, ci_high, n_pairs,
    n_boot,
    n_pairs < {{ var('min_stratum_pairs') }} as is_small_stratum,
    n_changed,
    {{ sparse_interval_flag('n_changed', 'ci_low', 'ci_high') }} as is_sparse,
    se,
    p_value,
    q_value,
    n_tests,
    mde,
    metric_order
from adjusted
