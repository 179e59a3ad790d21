-- The study's comparisons, as differences with paired bootstrap intervals (audit.metric_comparisons, all pairs):
--   * pretrained vs trained-from-scratch model: the difference of NATS(+) and NATS(-) (comparison = 'model');
--   * original vs gender-neutralized model: the difference of the pooled rate, DTS and NATS (comparison = 'model');
--   * settings against each other for the same model (comparison = 'setting').
-- difference = metric(b) - metric(a); which model is "a" follows the names (a sorts first): read model_a/model_b,
-- and their kinds and input transforms (audit.model_performance, for models trained here).

with models as (
    select distinct dataset, model, model_kind, coalesce(input_transform, 'none') as input_transform
    from {{ ref('model_performance') }}
)

select
    comparisons.comparison,
    comparisons.dataset,
    model_a,
    model_b,
    models_a.model_kind as model_kind_a,
    models_b.model_kind as model_kind_b,
    models_a.input_transform as input_transform_a,
    models_b.input_transform as input_transform_b,
    generator_a,
    generator_b,
    setting_a,
    setting_b,
    metric,
    estimate_a,
    estimate_b,
    difference,
    ci_low,
    ci_high,
    ci_excludes_zero,
    n_pairs_a,
    n_pairs_b
from {{ ref('metric_comparisons') }} as comparisons
left join models as models_a on models_a.dataset = comparisons.dataset and models_a.model = comparisons.model_a
left join models as models_b on models_b.dataset = comparisons.dataset and models_b.model = comparisons.model_b
where comparisons.stratum_name = 'overall'
  and comparisons.metric in ('nats_plus', 'nats_minus', 'dts_m_to_f', 'dts_f_to_m', 'pooled_rate', 'pdr')
order by comparisons.comparison, comparisons.dataset, model_a, model_b, setting_a, setting_b, generator_a,
         generator_b, comparisons.metric_order
