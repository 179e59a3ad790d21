-- The noise floor beside PDR: how often a model's argmax level changes when the very same test original is
-- scored again in a different batch composition (self_flip_rate; padding and batched kernels move logits a
-- little, most visibly in bf16 on a GPU), and the mean absolute change of its expected level. Each resampling unit
-- (the record's patient when known, var bootstrap_unit; else the record) gets one Poisson(1) multiplicity per
-- replicate from a hash of its key (bootstrap_unit_sums), independent of the draws of audit.paired_metrics (per joint cell): the interval of the self-flip rate and that
-- of the PDR beside it come from separate bootstraps. Each row also carries the PDR of the model's sex-swap pairs for
-- that setting (per generator) and, when placebo copies exist (generator '<generator>-placebo': a same-sex
-- rewrite through the same generator), their PDR: how much a rewrite alone moves predictions. A PDR is only
-- informative to the extent it exceeds both.

{%- set groups = ['dataset', 'model', 'setting'] %}
{%- set metrics = ['self_flip_rate', 'mean_abs_expected_change'] %}
{#- The suffix of placebo generators: biasmirror.counterfactuals.base.PLACEBO_SUFFIX (a test checks they agree). #}
{%- set placebo_suffix = '-placebo' %}

with units as (
    select dataset, model, setting, unit_key, flipped, abs_expected_change
    from {{ ref('int_self_flip_records') }}
),

sums as (
    {{ bootstrap_unit_sums('units', groups, ['flipped', 'abs_expected_change']) | indent(4) }}
),

replicate_metrics as (
    select
        dataset, model, setting, replicate, n_w,
        sum_flipped / nullif(n_w, 0) as self_flip_rate,
        sum_abs_expected_change / nullif(n_w, 0) as mean_abs_expected_change
    from sums
),

summary as (
    {{ summarise_replicates('replicate_metrics', groups, metrics, 'n_w', 'n_records') | indent(4) }}
),

pdr as (
    select dataset, model, generator, setting, estimate as pdr, ci_low as pdr_ci_low, ci_high as pdr_ci_high, n_pairs
    from {{ ref('paired_metrics') }}
    where stratum_name = 'overall' and metric = 'pdr'
),

swap_pdr as (
    select * from pdr where generator not like '%{{ placebo_suffix }}'
),

placebo_pdr as (
    select * from pdr where generator like '%{{ placebo_suffix }}'
)

select
    summary.dataset,
    summary.model,
    summary.setting,
    summary.metric,
    summary.estimate,
    summary.ci_low,
    summary.ci_high,
    summary.n_records,
    summary.n_boot,
    summary.metric_order,
    swap_pdr.generator,
    swap_pdr.pdr,
    swap_pdr.pdr_ci_low,
    swap_pdr.pdr_ci_high,
    swap_pdr.n_pairs,
    placebo_pdr.generator as placebo_generator,
    placebo_pdr.pdr as placebo_pdr,
    placebo_pdr.pdr_ci_low as placebo_pdr_ci_low,
    placebo_pdr.pdr_ci_high as placebo_pdr_ci_high
from summary
left join swap_pdr
    on swap_pdr.dataset = summary.dataset
    and swap_pdr.model = summary.model
    and swap_pdr.setting = summary.setting
left join placebo_pdr
    on placebo_pdr.dataset = swap_pdr.dataset
    and placebo_pdr.model = swap_pdr.model
    and placebo_pdr.setting = swap_pdr.setting
    and placebo_pdr.generator = swap_pdr.generator || '{{ placebo_suffix }}'
