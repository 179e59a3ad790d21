-- One row per data set, model, setting and test original with the level the model predicted and the patient's
-- documented sex: the unpaired comparison of the neutralization baseline (mean predicted level of male minus
-- female patients). Cells are (group, sex, predicted level), so the bootstrap sums weights per cell.

with originals as (
    select dataset, model, record_id, setting, predicted_level
    from {{ ref('int_scored_inputs') }}
    where variant = 'original'
),

cohort as (
    select dataset, record_id, sex from {{ ref('triage_cohort') }}
),

records as (
    select
        originals.dataset,
        originals.model,
        originals.setting,
        originals.record_id,
        cohort.sex,
        originals.predicted_level,
        {{ resample_key("originals.dataset || '|' || originals.record_id") }} as unit_key
    from originals
    inner join cohort on cohort.dataset = originals.dataset and cohort.record_id = originals.record_id
    where cohort.sex in ('F', 'M')
)

select
    *,
    dense_rank() over (order by dataset, model, setting, sex, predicted_level) as cell_id
from records
