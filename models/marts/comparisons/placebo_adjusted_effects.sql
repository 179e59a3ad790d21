-- The sex swap's effect beyond what a rewrite alone does: for every data set, model, setting, stratum and paired
-- metric where a placebo generator ('<generator>-placebo': same-sex rewrites of the same records, `biasmirror
-- counterfactuals --placebo`) ran beside the swap generator, adjusted_effect = metric(swap) - metric(placebo),
-- with the paired interval, p-value, q-value and mde of audit.metric_comparisons' generator comparison of the two
-- (the same records, so the same pairs or patients, resampled together on both sides). That comparison is
-- placebo - swap (its side a is the name that sorts first, the swap generator); here its sign is turned.

with comparisons as (
    select *
    from {{ ref('metric_comparisons') }}
    where comparison = 'generator'
      and model_b = model_a
      and setting_b = setting_a
      and generator_b = generator_a || '-placebo'
),

swap as (
    select dataset, model, generator, setting, stratum_name, stratum_value, metric, ci_low, ci_high, p_value, q_value
    from {{ ref('paired_metrics') }}
)

select
    comparisons.dataset,
    comparisons.model_a as model,
    comparisons.generator_a as generator,
    comparisons.generator_b as placebo_generator,
    comparisons.setting_a as setting,
    comparisons.stratum_name,
    comparisons.stratum_value,
    comparisons.metric,
    comparisons.estimate_a as swap_estimate,
    swap.ci_low as swap_ci_low,
    swap.ci_high as swap_ci_high,
    swap.q_value as swap_q_value,
    comparisons.estimate_b as placebo_estimate,
    -comparisons.difference as adjusted_effect,
    -comparisons.ci_high as ci_low,
    -comparisons.ci_low as ci_high,
    comparisons.se,
    comparisons.p_value,
    comparisons.q_value,
    comparisons.n_tests,
    comparisons.mde,
    comparisons.n_pairs_a as n_pairs_swap,
    comparisons.n_pairs_b as n_pairs_placebo,
    comparisons.n_changed,
    comparisons.is_sparse,
    comparisons.n_boot,
    comparisons.metric_order
from comparisons
left join swap
    on swap.dataset = comparisons.dataset and swap.model = comparisons.model_a
    and swap.generator = comparisons.generator_a and swap.setting = comparisons.setting_a
    and swap.stratum_name = comparisons.stratum_name and swap.stratum_value = comparisons.stratum_value
    and swap.metric = comparisons.metric
