-- For each term of the original notes with enough support: the pairs whose notes contain it, and PDR, DTS per
-- direction and the pooled rate over those pairs, with percentile bootstrap CIs (pairs resampled). Feeds the
-- report's word clouds and ranked term table (the study's exploratory word-cloud figure).

with replicates as (
    select * from {{ ref('int_term_metric_replicates') }}
),

summary as (
    {{ summarise_replicates('replicates', ['dataset', 'model', 'generator', 'setting', 'term'],
                            term_metric_names(), 'n_pairs_w', 'n_pairs') | indent(4) }}
),

observed as (
    select dataset, model, generator, setting, term,
           cast(n_m_to_f as bigint) as n_m_to_f, cast(n_f_to_m as bigint) as n_f_to_m
    from replicates
    where replicate = -1
)

select
    summary.dataset,
    summary.model,
    summary.generator,
    summary.setting,
    summary.term,
    summary.metric,
    summary.estimate,
    summary.ci_low,
    summary.ci_high,
    summary.n_pairs,
    observed.n_m_to_f,
    observed.n_f_to_m,
    case summary.metric
        when 'dts_m_to_f' then observed.n_m_to_f
        when 'dts_f_to_m' then observed.n_f_to_m
        else summary.n_pairs
    end < {{ var('min_stratum_pairs') }} as is_small_stratum,
    summary.n_boot,
    summary.metric_order
from summary
inner join observed using (dataset, model, generator, setting, term)
