-- Each test original (per setting) a model scored twice: in its scoring run and again in a different batch
-- composition (inference.prediction_repeats, repeat 1). flipped = 1 when the two predicted levels differ.
-- unit_key, the record's resampling unit (macro resampling_unit: its patient when known and var bootstrap_unit is
-- 'patient', the default, else the record; the same key the paired metrics give the record's pairs), drives one
-- Poisson(1) draw per unit and replicate in audit.noise_floor. The draws are not those of audit.paired_metrics
-- (one Poisson(n) per joint cell): the noise floor's and the PDR's replicates are independent, not coupled.

{%- set unit = resampling_unit('first_scoring.dataset', 'first_scoring.record_id', 'cohort.patient_id') %}

with first_scoring as (
    select dataset, model, record_id, setting, input_id, predicted_level, expected_level
    from {{ ref('int_scored_inputs') }}
    where variant = 'original'
),

repeats as (
    select dataset, model, input_id, predicted_level, expected_level
    from {{ ref('stg_inference__prediction_repeats') }}
    where repeat_number = 1
),

records as (
    select
        first_scoring.dataset,
        first_scoring.model,
        first_scoring.setting,
        first_scoring.record_id,
        first_scoring.predicted_level as first_level,
        repeats.predicted_level as repeat_level,
        case when first_scoring.predicted_level <> repeats.predicted_level then 1 else 0 end as flipped,
        abs(first_scoring.expected_level - repeats.expected_level) as abs_expected_change,
        cohort.patient_id,
        {{ unit.unit_key }} as unit_key
    from first_scoring
    inner join repeats
        on repeats.dataset = first_scoring.dataset
        and repeats.model = first_scoring.model
        and repeats.input_id = first_scoring.input_id
    left join {{ ref('triage_cohort') }} as cohort
        on cohort.dataset = first_scoring.dataset
        and cohort.record_id = first_scoring.record_id
)

select * from records
