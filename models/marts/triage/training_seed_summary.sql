-- Stability across training seeds (`train --seeds`, `baselines ... --seeds`): for the models of one seed group
-- (inference.triage_models.seed_group), the mean, sample standard deviation (n - 1 in the denominator),
-- minimum, maximum and range of each paired metric (audit.paired_metrics, every stratum) and each performance
-- metric (audit.model_performance) over the seeds. n_models counts the group's models with a row; n_defined
-- those whose estimate is defined (not null), which the statistics are computed over.

with seeded_models as (
    select dataset, model, seed_group
    from {{ ref('stg_inference__triage_models') }}
    where seed_group is not null
),

paired as (
    select
        metrics.dataset, seeded_models.seed_group, metrics.setting, metrics.generator,
        metrics.stratum_name, metrics.stratum_value, 'paired_metrics' as metric_source, metrics.metric,
        metrics.model, metrics.estimate
    from {{ ref('paired_metrics') }} as metrics
    inner join seeded_models
        on seeded_models.dataset = metrics.dataset
        and seeded_models.model = metrics.model
),

performance as (
    select
        metrics.dataset, seeded_models.seed_group, metrics.setting, cast(null as {{ biasmirror.type_text() }}) as generator,
        'overall' as stratum_name, 'all' as stratum_value, 'model_performance' as metric_source, metrics.metric,
        metrics.model, metrics.estimate
    from {{ ref('model_performance') }} as metrics
    inner join seeded_models
        on seeded_models.dataset = metrics.dataset
        and seeded_models.model = metrics.model
),

estimates as (
    select * from paired
    union all
    select * from performance
)

select
    dataset,
    seed_group,
    setting,
    generator,
    stratum_name,
    stratum_value,
    metric_source,
    metric,
    count(*) as n_models,
    count(estimate) as n_defined,
    avg(estimate) as mean_estimate,
    stddev_samp(estimate) as sd_estimate,
    min(estimate) as min_estimate,
    max(estimate) as max_estimate,
    max(estimate) - min(estimate) as range_estimate
from estimates
group by dataset, seed_group, setting, generator, stratum_name, stratum_value, metric_source, metric
