-- One row per data set, model, setting and test original with the level the model predicted and the patient's
-- documented sex: the unpaired comparison of the neutralization baseline (mean predicted level of male minus
-- female patients). Cells are (group, sex, predicted level), so the bootstrap sums weights per cell. unit_key is the
-- record's resampling unit (macro resampling_unit: its patient when known and var bootstrap_unit is 'patient', the
-- default, else the record; the same key the paired metrics give the record's pairs), unit_is_pair true when the
-- record is resampled alone.

{%- set unit = resampling_unit('originals.dataset', 'originals.record_id', 'cohort.patient_id') %}

with originals as (
    select dataset, model, record_id, setting, predicted_level
    from {{ ref('int_scored_inputs') }}
    where variant = 'original'
),

cohort as (
    select dataset, record_id, patient_id, sex from {{ ref('triage_cohort') }}
),

records as (
    select
        originals.dataset,
        originals.model,
        originals.setting,
        originals.record_id,
        cohort.sex,
        originals.predicted_level,
        cohort.patient_id,
        {{ unit.unit_is_pair }} as unit_is_pair,
        {{ unit.unit_key }} as unit_key
    from originals
    inner join cohort on cohort.dataset = originals.dataset and cohort.record_id = originals.record_id
    where cohort.sex in ('F', 'M')
)

select
    *,
    dense_rank() over (order by dataset, model, setting, sex, predicted_level) as cell_id
from records
