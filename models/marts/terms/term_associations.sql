-- For each term of the original notes with enough support: the pairs whose notes contain it, and PDR, DTS per
-- direction and the pooled rate over those pairs, with percentile bootstrap CIs (pairs resampled). Feeds the
-- report's word clouds and ranked term table (the study's exploratory word-cloud figure).

{%- set all_changes = paired_metric_changes() %}
{%- set changes = {} %}
{%- for name in term_metric_names() %}{% do changes.update({name: all_changes[name]}) %}{% endfor %}

with replicates as (
    select * from {{ ref('int_term_metric_replicates') }}
),

summary as (
    {{ summarise_replicates('replicates', ['dataset', 'model', 'generator', 'setting', 'term'],
                            term_metric_names(), 'n_pairs_w', 'n_pairs') | indent(4) }}
),

observed as (
    select dataset, model, generator, setting, term,
           cast(n_m_to_f as bigint) as n_m_to_f, cast(n_f_to_m as bigint) as n_f_to_m,
           {%- for name, expression in changes.items() %}
           cast({{ expression }} as bigint) as changes_{{ name }}{{ "," if not loop.last }}
           {%- endfor %}
    from replicates
    where replicate = -1
),

counted as (
    select
        summary.*,
        observed.n_m_to_f,
        observed.n_f_to_m,
        case summary.metric
            {%- for name in changes.keys() %}
            when '{{ name }}' then observed.changes_{{ name }}
            {%- endfor %}
        end as n_changed
    from summary
    inner join observed using (dataset, model, generator, setting, term)
)

select
    dataset,
    model,
    generator,
    setting,
    term,
    metric,
    estimate,
    ci_low,
    ci_high,
    n_pairs,
    n_m_to_f,
    n_f_to_m,
    case metric
        when 'dts_m_to_f' then n_m_to_f
        when 'dts_f_to_m' then n_f_to_m
        else n_pairs
    end < {{ var('min_stratum_pairs') }} as is_small_stratum,
    n_changed,
    {{ sparse_interval_flag('n_changed', 'ci_low', 'ci_high') }} as is_sparse,
    n_boot,
    metric_order
from counted
