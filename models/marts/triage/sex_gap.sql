-- The neutralization baseline's comparison (the study's "M-F difference"): on the test originals of each data
-- set, model and setting, the mean predicted level of male patients minus that of female patients (> 0: men are
-- scored less severe), with a percentile bootstrap CI (patients resampled with all their test records where the
-- data name them, var bootstrap_unit; else records) and the two-sided Mann-Whitney U test
-- of the two samples of predicted levels. Compare a model with its neutralized twin (input_transform
-- 'neutralized', trained and scored with every sex/gender marker removed): a gap that vanishes after
-- neutralization was carried by the markers.

with cells as (
    select distinct cell_id, dataset, model, setting, sex, predicted_level
    from {{ ref('int_sex_gap_records') }}
),

weighted as (
    select cells.dataset, cells.model, cells.setting, cells.sex, cells.predicted_level, weights.replicate,
           cast(weights.weight as {{ biasmirror.type_double() }}) as weight
    from {{ ref('int_sex_gap_bootstrap_weights') }} as weights
    inner join cells using (cell_id)
),

replicate_means as (
    select
        dataset, model, setting, replicate,
        sum(case when sex = 'M' then weight * predicted_level end) / nullif(sum(case when sex = 'M' then weight end), 0) as mean_level_male,
        sum(case when sex = 'F' then weight * predicted_level end) / nullif(sum(case when sex = 'F' then weight end), 0) as mean_level_female
    from weighted
    group by dataset, model, setting, replicate
),

intervals as (
    select
        dataset, model, setting,
        max(case when replicate = -1 then mean_level_male end) as mean_level_male,
        max(case when replicate = -1 then mean_level_female end) as mean_level_female,
        max(case when replicate = -1 then mean_level_male - mean_level_female end) as m_minus_f,
        {{ percentile_ci_low('case when replicate >= 0 then mean_level_male - mean_level_female end') }} as m_minus_f_ci_low,
        {{ percentile_ci_high('case when replicate >= 0 then mean_level_male - mean_level_female end') }} as m_minus_f_ci_high,
        count(case when replicate >= 0 and mean_level_male is not null and mean_level_female is not null then 1 end) as n_boot
    from replicate_means
    group by dataset, model, setting
),

observed_counts as (
    select
        dataset, model, setting, predicted_level as value,
        sum(case when sex = 'M' then weight else 0 end) as n_x,
        sum(case when sex = 'F' then weight else 0 end) as n_y
    from weighted
    where replicate = -1
    group by dataset, model, setting, predicted_level
),

mann_whitney as (
    {{ mann_whitney_from_counts('observed_counts', ['dataset', 'model', 'setting']) | indent(4) }}
),

models as (
    select dataset, model, kind, input_transform from {{ ref('stg_inference__triage_models') }}
)

select
    intervals.dataset,
    intervals.model,
    intervals.setting,
    models.kind,
    coalesce(models.input_transform, 'none') as input_transform,
    cast(mann_whitney.n_y as bigint) as n_female,
    cast(mann_whitney.n_x as bigint) as n_male,
    intervals.mean_level_female,
    intervals.mean_level_male,
    intervals.m_minus_f,
    intervals.m_minus_f_ci_low,
    intervals.m_minus_f_ci_high,
    intervals.n_boot,
    mann_whitney.u_x as mann_whitney_u,
    mann_whitney.z as mann_whitney_z,
    mann_whitney.p_value as mann_whitney_p
from intervals
inner join mann_whitney using (dataset, model, setting)
left join models using (dataset, model)
