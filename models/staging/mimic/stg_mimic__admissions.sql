with source as (
    {{ raw_source('mimic', 'admissions') }}
)

select
    {{ biasmirror.try_cast_text("hadm_id", "bigint") }} as hadm_id,
    {{ biasmirror.try_cast_text("subject_id", "bigint") }} as subject_id,
    {{ biasmirror.try_cast_text("admittime", "timestamp") }} as admitted_at,
    {{ biasmirror.try_cast_text("dischtime", "timestamp") }} as discharged_at,
    nullif(trim(admission_type), '') as admission_type,
    nullif(trim(insurance), '') as insurance,
    nullif(trim(language), '') as language,
    nullif(trim(marital_status), '') as marital_status,
    nullif(trim(race), '') as race
from source
