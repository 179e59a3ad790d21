-- The study's Supplementary Table 12 (Supplementary Note 6): the two directional skews are estimated on disjoint
-- cohorts (male and female originals), so they are summarised as one size-weighted per-pair rate, not as their
-- sum: pooled_rate = (n_m_to_f * dts_m_to_f - n_f_to_m * dts_f_to_m) / N. This breakdown shows each cohort's
-- size, skew and contribution, all pairs, every setting.

with observed as (
    select
        dataset, model, generator, setting, n_pairs_w as n_pairs,
        p_up_m_to_f, p_down_m_to_f, p_up_f_to_m, p_down_f_to_m, dts_m_to_f, dts_f_to_m, pooled_rate
    from {{ ref('int_paired_metric_replicates') }}
    where stratum_name = 'overall' and replicate = -1
),

cohorts as (
    select dataset, model, generator, setting,
           cast(sum(case when direction = 'm_to_f' then 1 else 0 end) as bigint) as n_m_to_f,
           cast(sum(case when direction = 'f_to_m' then 1 else 0 end) as bigint) as n_f_to_m
    from {{ ref('pair_outcomes') }}
    group by dataset, model, generator, setting
),

intervals as (
    select dataset, model, generator, setting, metric, ci_low, ci_high
    from {{ ref('paired_metrics') }}
    where stratum_name = 'overall' and metric in ('dts_m_to_f', 'dts_f_to_m', 'pooled_rate')
)

select
    observed.dataset,
    observed.model,
    observed.generator,
    observed.setting,
    cohorts.n_m_to_f,
    observed.dts_m_to_f,
    dts_m_to_f_ci.ci_low as dts_m_to_f_ci_low,
    dts_m_to_f_ci.ci_high as dts_m_to_f_ci_high,
    cohorts.n_m_to_f * observed.dts_m_to_f / observed.n_pairs as contribution_m_to_f,
    cohorts.n_f_to_m,
    observed.dts_f_to_m,
    dts_f_to_m_ci.ci_low as dts_f_to_m_ci_low,
    dts_f_to_m_ci.ci_high as dts_f_to_m_ci_high,
    -cohorts.n_f_to_m * observed.dts_f_to_m / observed.n_pairs as contribution_f_to_m,
    observed.pooled_rate,
    pooled_ci.ci_low as pooled_rate_ci_low,
    pooled_ci.ci_high as pooled_rate_ci_high
from observed
inner join cohorts using (dataset, model, generator, setting)
left join intervals as dts_m_to_f_ci
    on dts_m_to_f_ci.dataset = observed.dataset and dts_m_to_f_ci.model = observed.model
    and dts_m_to_f_ci.generator = observed.generator and dts_m_to_f_ci.setting = observed.setting
    and dts_m_to_f_ci.metric = 'dts_m_to_f'
left join intervals as dts_f_to_m_ci
    on dts_f_to_m_ci.dataset = observed.dataset and dts_f_to_m_ci.model = observed.model
    and dts_f_to_m_ci.generator = observed.generator and dts_f_to_m_ci.setting = observed.setting
    and dts_f_to_m_ci.metric = 'dts_f_to_m'
left join intervals as pooled_ci
    on pooled_ci.dataset = observed.dataset and pooled_ci.model = observed.model
    and pooled_ci.generator = observed.generator and pooled_ci.setting = observed.setting
    and pooled_ci.metric = 'pooled_rate'
order by dataset, model, generator, setting
