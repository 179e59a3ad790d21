with source as (
    {{ raw_source('mimic', 'triage') }}
),

cast_values as (
    select
        try_cast(stay_id as bigint) as stay_id,
        try_cast(subject_id as bigint) as subject_id,
        try_cast(temperature as double) as temperature_f,
        try_cast(heartrate as double) as heart_rate,
        try_cast(resprate as double) as resp_rate,
        try_cast(o2sat as double) as o2_saturation,
        try_cast(sbp as double) as systolic_bp,
        try_cast(dbp as double) as diastolic_bp,
        nullif(trim(pain), '') as pain_text,
        try_cast(try_cast(acuity as double) as integer) as acuity,
        nullif(trim(chiefcomplaint), '') as chief_complaint
    from source
)

select
    *,
    -- Pain is free text: a number, a range ('3-4', read as its midpoint) or a code such as 'UA' (unable to
    -- assess), which stays null here and is kept verbatim in pain_text.
    case
        when {{ regex_matches('pain_text', "'^[0-9]+(\\.[0-9]+)?$'") }}
            then try_cast(pain_text as double)
        when {{ regex_matches('pain_text', "'^[0-9]+ *- *[0-9]+$'") }}
            then (try_cast(trim(split_part(pain_text, '-', 1)) as double) + try_cast(trim(split_part(pain_text, '-', 2)) as double)) / 2
    end as pain_score_raw
from cast_values
