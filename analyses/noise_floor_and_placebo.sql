-- What qualifies the PDR (not a table of the study, which could not separate it): per data set, model, setting
-- and sex-swap generator, the PDR of the sex-swap pairs beside the self-flip rate (the same input scored twice
-- in another batch composition) and the PDR of placebo rewrites (same-sex rewrites through the same generator),
-- from audit.noise_floor. Only the part of the PDR above both can be attributed to the sex swap.

select
    dataset,
    model,
    setting,
    generator,
    pdr,
    pdr_ci_low,
    pdr_ci_high,
    estimate as self_flip_rate,
    ci_low as self_flip_rate_ci_low,
    ci_high as self_flip_rate_ci_high,
    placebo_generator,
    placebo_pdr,
    placebo_pdr_ci_low,
    placebo_pdr_ci_high,
    pdr - greatest(estimate, coalesce(placebo_pdr, 0)) as pdr_above_noise_and_placebo
from {{ ref('noise_floor') }}
where metric = 'self_flip_rate'
order by dataset, model, setting, generator
