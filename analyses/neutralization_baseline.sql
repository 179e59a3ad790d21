-- The study's gender-neutralization baseline: on the test originals, the mean predicted level of male patients
-- minus that of female patients (the study's "M-F difference"; < 0: men are scored more severe), with its 95%
-- bootstrap interval and the two-sided Mann-Whitney p-value, for each model next to its neutralized twin
-- (input_transform = 'neutralized': trained and scored on inputs with every sex/gender marker removed). The study
-- (MIMIC-IV): -0.0332 [-0.045, -0.021], p = 6.4e-7 for the original model; -0.0005 [-0.013, +0.013], p = 0.93
-- for the neutralized one. Weighted kappa of both (setting full) shows that the neutralized model still triages.

with gap as (
    select * from {{ ref('sex_gap') }}
),

kappa as (
    select dataset, model, setting, estimate as kappa_linear, ci_low as kappa_linear_ci_low, ci_high as kappa_linear_ci_high
    from {{ ref('model_performance') }}
    where metric = 'kappa_linear'
)

select
    gap.dataset,
    gap.model,
    gap.setting,
    gap.kind,
    coalesce(gap.input_transform, 'none') as input_transform,
    gap.n_female,
    gap.n_male,
    gap.mean_level_female,
    gap.mean_level_male,
    gap.m_minus_f,
    gap.m_minus_f_ci_low,
    gap.m_minus_f_ci_high,
    gap.mann_whitney_p,
    kappa.kappa_linear,
    kappa.kappa_linear_ci_low,
    kappa.kappa_linear_ci_high
from gap
left join kappa using (dataset, model, setting)
order by gap.dataset, gap.setting, coalesce(gap.input_transform, 'none'), gap.model
