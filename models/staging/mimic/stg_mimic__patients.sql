with source as (
    {{ raw_source('mimic', 'patients') }}
)

select
    try_cast(subject_id as bigint) as subject_id,
    case upper(trim(gender)) when 'F' then 'F' when 'M' then 'M' end as sex,
    cast({{ raw_number("nullif(trim(anchor_age), '')") }} as integer) as anchor_age,
    try_cast(anchor_year as integer) as anchor_year,
    nullif(trim(anchor_year_group), '') as anchor_year_group,
    try_cast(nullif(trim(dod), '') as date) as died_on
from source
