-- One row per data set, model, setting and test original with the level the model predicted and the patient's
-- documented sex: the unpaired comparison of the neutralization baseline (mean predicted level of male minus
-- female patients). Cells are (group, sex, predicted level), so the bootstrap sums weights per cell.

with inputs as (
    select distinct dataset, record_id, setting, input_id
    from {{ ref('model_inputs') }}
    where split = 'test' and variant = 'original'
),

predictions as (
    select dataset, model, input_id, predicted_level
    from {{ ref('stg_inference__predictions') }}
),

cohort as (
    select dataset, record_id, sex from {{ ref('triage_cohort') }}
),

records as (
    select
        inputs.dataset,
        predictions.model,
        inputs.setting,
        inputs.record_id,
        cohort.sex,
        predictions.predicted_level,
        {{ resample_key("inputs.dataset || '|' || inputs.record_id") }} as unit_key
    from inputs
    inner join predictions on predictions.dataset = inputs.dataset and predictions.input_id = inputs.input_id
    inner join cohort on cohort.dataset = inputs.dataset and cohort.record_id = inputs.record_id
    where cohort.sex in ('F', 'M')
)

select
    *,
    dense_rank() over (order by dataset, model, setting, sex, predicted_level) as cell_id
from records
