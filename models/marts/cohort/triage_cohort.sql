-- The analysis cohort: every record that passed the exclusions, with its train/test split and its
-- linearized model input (full setting, documented sex).

with records as (
    select * from {{ ref('int_triage_records_excluded') }}
    where exclusion_reason is null
)

select
    dataset,
    record_id,
    patient_id,
    language,
    case
        when {{ stable_uniform("'" ~ var('split_seed') ~ "|' || dataset || '|' || record_id") }} < {{ var('test_fraction') }}
            then 'test'
        else 'train'
    end as split,
    sex,
    age,
    arrival_mode,
    temperature_c,
    heart_rate,
    resp_rate,
    o2_saturation,
    systolic_bp,
    diastolic_bp,
    pain_score,
    pain_text,
    chief_complaint,
    chief_complaint_class,
    hpi,
    pmh,
    nurse_id,
    nurse_sex,
    documented_level,
    {{ linearize_record() }} as input_text
from records
