with source as (
    {{ raw_source('mimic', 'edstays') }}
)

select
    {{ biasmirror.try_cast_text("stay_id", "bigint") }} as stay_id,
    {{ biasmirror.try_cast_text("subject_id", "bigint") }} as subject_id,
    {{ biasmirror.try_cast_text("nullif(trim(hadm_id), '')", "bigint") }} as hadm_id,
    {{ biasmirror.try_cast_text("intime", "timestamp") }} as arrived_at,
    {{ biasmirror.try_cast_text("outtime", "timestamp") }} as departed_at,
    case upper(trim(gender)) when 'F' then 'F' when 'M' then 'M' end as sex,
    nullif(trim(race), '') as race,
    nullif(trim(arrival_transport), '') as arrival_transport,
    nullif(trim(disposition), '') as disposition
from source
