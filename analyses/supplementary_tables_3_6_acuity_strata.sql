-- The study's Supplementary Tables 3-6: the paired comparison by documented triage level - shares of pairs whose
-- copy moved up (less severe) or down (more severe) per direction, and the odds ratio the study reports per
-- level. The odds ratio is audit.acuity_odds_ratios (docs/metrics.md, "Acuity odds ratio"): among changed pairs,
-- the odds of an up rather than a down move, female->male over male->female; OR < 1: female originals presented
-- as male are more often judged "more severe" than male originals presented as female (the study: MIMIC level 3,
-- OR 0.81). Zero cells carry the Haldane-Anscombe correction (zero_cell_corrected); read is_sparse.

with shares as (
    select
        dataset, model, generator, setting, stratum_value as documented_level,
        max(n_pairs) as n_pairs,
        max(case when metric = 'p_up_m_to_f' then estimate end) as p_up_m_to_f,
        max(case when metric = 'p_down_m_to_f' then estimate end) as p_down_m_to_f,
        max(case when metric = 'p_up_f_to_m' then estimate end) as p_up_f_to_m,
        max(case when metric = 'p_down_f_to_m' then estimate end) as p_down_f_to_m
    from {{ ref('paired_metrics') }}
    where stratum_name = 'documented_level'
    group by dataset, model, generator, setting, stratum_value
)

select
    shares.dataset,
    shares.model,
    shares.generator,
    shares.setting,
    shares.documented_level,
    shares.n_pairs,
    shares.p_up_m_to_f,
    shares.p_down_m_to_f,
    shares.p_up_f_to_m,
    shares.p_down_f_to_m,
    odds.odds_ratio as or_up_f_to_m_vs_m_to_f,
    odds.ci_low as or_ci_low,
    odds.ci_high as or_ci_high,
    odds.n_boot as or_n_boot,
    odds.zero_cell_corrected as or_zero_cell_corrected,
    odds.undefined_reason as or_undefined_reason,
    odds.is_sparse as or_is_sparse
from shares
inner join {{ ref('acuity_odds_ratios') }} as odds
    on odds.dataset = shares.dataset and odds.model = shares.model and odds.generator = shares.generator
    and odds.setting = shares.setting and odds.stratum_name = 'documented_level'
    and odds.stratum_value = shares.documented_level
order by shares.dataset, shares.model, shares.generator, shares.setting, shares.documented_level
