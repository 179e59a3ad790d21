with source as (
    {{ raw_source('mimic', 'patients') }}
)

select
    {{ biasmirror.try_cast_text("subject_id", "bigint") }} as subject_id,
    case upper(trim(gender)) when 'F' then 'F' when 'M' then 'M' end as sex,
    cast({{ raw_number("nullif(trim(anchor_age), '')") }} as integer) as anchor_age,
    {{ biasmirror.try_cast_text("anchor_year", "integer") }} as anchor_year,
    nullif(trim(anchor_year_group), '') as anchor_year_group,
    {{ biasmirror.try_cast_text("nullif(trim(dod), '')", "date") }} as died_on
from source
