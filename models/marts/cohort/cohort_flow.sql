-- The cohort flowchart: records left after each filtering step, per data set, then the split.

with records as (
    select dataset, exclusion_reason from {{ ref('int_triage_records_excluded') }}
),

steps as (
    select * from {{ ref('exclusion_steps') }}
),

datasets as (
    select dataset, count(*) as n_records from records group by dataset
),

excluded_per_step as (
    select
        datasets.dataset,
        steps.step_order,
        steps.exclusion_reason,
        steps.description,
        count(records.exclusion_reason) as n_excluded
    from datasets
    inner join steps on steps.applies_to in ('all', datasets.dataset)
    left join records
        on records.dataset = datasets.dataset
        and records.exclusion_reason = steps.exclusion_reason
    group by datasets.dataset, steps.step_order, steps.exclusion_reason, steps.description
),

flow as (
    select dataset, 0 as step_order, 'source records' as step, 'every record in the source' as description,
           0 as n_excluded, n_records as n_remaining
    from datasets

    union all

    select
        excluded_per_step.dataset,
        excluded_per_step.step_order,
        'exclude: ' || excluded_per_step.exclusion_reason,
        excluded_per_step.description,
        excluded_per_step.n_excluded,
        datasets.n_records - cast(sum(excluded_per_step.n_excluded) over (
            partition by excluded_per_step.dataset order by excluded_per_step.step_order
        ) as bigint)
    from excluded_per_step
    inner join datasets using (dataset)

    union all

    select dataset, 100 + case split when 'train' then 1 else 2 end, 'split: ' || split,
           'records in the ' || split || ' split', 0, count(*)
    from {{ ref('triage_cohort') }}
    group by dataset, split
)

select * from flow
