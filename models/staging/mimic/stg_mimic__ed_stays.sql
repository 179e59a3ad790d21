with source as (
    {{ raw_source('mimic', 'edstays') }}
)

select
    try_cast(stay_id as bigint) as stay_id,
    try_cast(subject_id as bigint) as subject_id,
    try_cast(nullif(trim(hadm_id), '') as bigint) as hadm_id,
    try_cast(intime as timestamp) as arrived_at,
    try_cast(outtime as timestamp) as departed_at,
    case upper(trim(gender)) when 'F' then 'F' when 'M' then 'M' end as sex,
    nullif(trim(race), '') as race,
    nullif(trim(arrival_transport), '') as arrival_transport,
    nullif(trim(disposition), '') as disposition
from source
