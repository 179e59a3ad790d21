-- The study's Supplementary Tables 3-6: the paired comparison by documented triage level - shares of pairs whose
-- copy moved up (less severe) or down (more severe) per direction, and the odds ratio that the study reports per
-- level. Our reading of that odds ratio (the paper gives it without a formula): the odds that a shift goes toward
-- the less severe level rather than the more severe one, female->male over male->female,
--     or_up_f_to_m_vs_m_to_f = (p_up_f_to_m / p_down_f_to_m) / (p_up_m_to_f / p_down_m_to_f);
-- OR < 1: female originals rewritten as male are more often judged "more severe" than male originals rewritten
-- as female (the study: MIMIC level 3, OR 0.81). Its 95% interval is the percentile interval over the same
-- bootstrap replicates as every other metric.

with replicates as (
    select
        dataset, model, generator, setting, stratum_value as documented_level, replicate, n_pairs_w,
        p_up_m_to_f, p_down_m_to_f, p_up_f_to_m, p_down_f_to_m,
        (p_up_f_to_m / nullif(p_down_f_to_m, 0)) / nullif(p_up_m_to_f / nullif(p_down_m_to_f, 0), 0) as odds_ratio
    from {{ ref('int_paired_metric_replicates') }}
    where stratum_name = 'documented_level'
)

select
    dataset,
    model,
    generator,
    setting,
    documented_level,
    cast(max(case when replicate = -1 then n_pairs_w end) as bigint) as n_pairs,
    max(case when replicate = -1 then p_up_m_to_f end) as p_up_m_to_f,
    max(case when replicate = -1 then p_down_m_to_f end) as p_down_m_to_f,
    max(case when replicate = -1 then p_up_f_to_m end) as p_up_f_to_m,
    max(case when replicate = -1 then p_down_f_to_m end) as p_down_f_to_m,
    max(case when replicate = -1 then odds_ratio end) as or_up_f_to_m_vs_m_to_f,
    {{ percentile_ci_low('case when replicate >= 0 then odds_ratio end') }} as or_ci_low,
    {{ percentile_ci_high('case when replicate >= 0 then odds_ratio end') }} as or_ci_high,
    count(case when replicate >= 0 and odds_ratio is not null then 1 end) as or_n_boot
from replicates
group by dataset, model, generator, setting, documented_level
order by dataset, model, generator, setting, documented_level
