with source as (
    {{ raw_source('mimic', 'admissions') }}
)

select
    try_cast(hadm_id as bigint) as hadm_id,
    try_cast(subject_id as bigint) as subject_id,
    try_cast(admittime as timestamp) as admitted_at,
    try_cast(dischtime as timestamp) as discharged_at,
    nullif(trim(admission_type), '') as admission_type,
    nullif(trim(insurance), '') as insurance,
    nullif(trim(language), '') as language,
    nullif(trim(marital_status), '') as marital_status,
    nullif(trim(race), '') as race
from source
