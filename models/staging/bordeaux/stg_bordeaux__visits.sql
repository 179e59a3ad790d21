-- Bordeaux ED visits, typed. One row per visit of the extract (models/staging/bordeaux/_bordeaux__sources.yml).
-- Numbers are read with the project's grammar (macro raw_number: a decimal comma is accepted); values that do
-- not parse become null (the raw text of the pain score is kept).
-- Materialized as a table: the extract (with its notes) is parsed once per build.

{{ config(materialized='table') }}

with source as (
    {{ raw_source('bordeaux', 'visits') }}
),

trimmed as (
    select
        nullif(trim(visit_id), '') as visit_id,
        nullif(trim(patient_id), '') as patient_id,
        nullif(trim(arrival_time), '') as arrival_time,
        upper(nullif(trim(patient_sex), '')) as patient_sex,
        replace(nullif(trim(patient_age), ''), ',', '.') as patient_age,
        nullif(trim(arrival_mode), '') as arrival_mode,
        nullif(trim(nurse_id), '') as nurse_id,
        upper(nullif(trim(nurse_sex), '')) as nurse_sex,
        replace(nullif(trim(temperature_c), ''), ',', '.') as temperature_c,
        replace(nullif(trim(heart_rate), ''), ',', '.') as heart_rate,
        replace(nullif(trim(systolic_bp), ''), ',', '.') as systolic_bp,
        replace(nullif(trim(diastolic_bp), ''), ',', '.') as diastolic_bp,
        replace(nullif(trim(spo2), ''), ',', '.') as spo2,
        replace(nullif(trim(resp_rate), ''), ',', '.') as resp_rate,
        nullif(trim(pain_score), '') as pain_text,
        upper(nullif(trim(complaint_code), '')) as complaint_code,
        nullif(trim(complaint_label), '') as complaint_label,
        upper(nullif(trim(icd10_chapter), '')) as icd10_chapter,
        -- Normalise line endings and blank texts so that keyword rules and the linearization see one format.
        nullif(trim(replace(triage_note, chr(13), '')), '') as triage_note,
        nullif(trim(replace(history, chr(13), '')), '') as history,
        nullif(trim(triage_level), '') as triage_level
    from source
)

select
    visit_id,
    patient_id,
    {{ biasmirror.try_cast_text("arrival_time", "timestamp") }} as arrived_at,
    case patient_sex when 'F' then 'F' when 'M' then 'M' end as patient_sex,
    cast({{ round_half_away(raw_number('patient_age')) }} as integer) as patient_age,
    arrival_mode,
    nurse_id,
    case nurse_sex when 'F' then 'F' when 'M' then 'M' end as nurse_sex,
    {{ raw_number('temperature_c') }} as temperature_c,
    {{ raw_number('heart_rate') }} as heart_rate,
    {{ raw_number('systolic_bp') }} as systolic_bp,
    {{ raw_number('diastolic_bp') }} as diastolic_bp,
    {{ raw_number('spo2') }} as o2_saturation,
    {{ raw_number('resp_rate') }} as resp_rate,
    pain_text,
    {{ raw_number('pain_text') }} as pain_score_raw,
    complaint_code,
    complaint_label,
    icd10_chapter,
    triage_note,
    history,
    cast({{ raw_number('triage_level') }} as integer) as triage_level
from trimmed
