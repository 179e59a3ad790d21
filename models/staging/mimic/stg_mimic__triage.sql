with source as (
    {{ raw_source('mimic', 'triage') }}
),

cast_values as (
    select
        {{ biasmirror.try_cast_text("stay_id", "bigint") }} as stay_id,
        {{ biasmirror.try_cast_text("subject_id", "bigint") }} as subject_id,
        {{ raw_number("nullif(trim(temperature), '')") }} as temperature_f,
        {{ raw_number("nullif(trim(heartrate), '')") }} as heart_rate,
        {{ raw_number("nullif(trim(resprate), '')") }} as resp_rate,
        {{ raw_number("nullif(trim(o2sat), '')") }} as o2_saturation,
        {{ raw_number("nullif(trim(sbp), '')") }} as systolic_bp,
        {{ raw_number("nullif(trim(dbp), '')") }} as diastolic_bp,
        nullif(trim(pain), '') as pain_text,
        cast({{ raw_number("nullif(trim(acuity), '')") }} as integer) as acuity,
        nullif(trim(chiefcomplaint), '') as chief_complaint
    from source
)

select
    *,
    -- Pain is free text: a number, a range ('3-4', read as its midpoint) or a code such as 'UA' (unable to
    -- assess), which stays null here and is kept verbatim in pain_text.
    case
        when {{ regex_matches('pain_text', "'^[0-9]+(\\.[0-9]+)?$'") }}
            then {{ biasmirror.try_cast_text("pain_text", "double") }}
        when {{ regex_matches('pain_text', "'^[0-9]+ *- *[0-9]+$'") }}
            then ({{ biasmirror.try_cast_text("trim(split_part(pain_text, '-', 1))", "double") }} + {{ biasmirror.try_cast_text("trim(split_part(pain_text, '-', 2))", "double") }}) / 2
    end as pain_score_raw
from cast_values
