-- The study's Table 4 (distribution of documented triage levels per data set) and Supplementary Table 7 (the
-- same by patient sex), over the analysis cohort.

with levels as (
    select dataset, sex, documented_level, count(*) as n_records
    from {{ ref('triage_cohort') }}
    group by dataset, sex, documented_level
)

select
    dataset,
    documented_level,
    sum(n_records) as n_records,
    sum(n_records) / sum(sum(n_records)) over (partition by dataset) as share,
    sum(case when sex = 'F' then n_records else 0 end) as n_female,
    sum(case when sex = 'F' then n_records else 0 end)
        / nullif(sum(sum(case when sex = 'F' then n_records else 0 end)) over (partition by dataset), 0) as share_of_female,
    sum(case when sex = 'M' then n_records else 0 end) as n_male,
    sum(case when sex = 'M' then n_records else 0 end)
        / nullif(sum(sum(case when sex = 'M' then n_records else 0 end)) over (partition by dataset), 0) as share_of_male
from levels
group by dataset, documented_level
order by dataset, documented_level
