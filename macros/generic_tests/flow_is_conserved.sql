{#- A cohort flowchart adds up, per data set: each exclusion step leaves the previous step's records minus the
    ones it excluded, and the split rows (step_order > split_from) hold exactly the records the last step left.
    Fails once per broken step or data set. -#}
{% test flow_is_conserved(model, split_from=100) %}
with steps as (
    select
        dataset,
        step_order,
        n_excluded,
        n_remaining,
        lag(n_remaining) over (partition by dataset order by step_order) as previous_remaining
    from {{ model }}
    where step_order < {{ split_from }}
),

last_steps as (
    select steps.dataset, steps.n_remaining
    from steps
    inner join (select dataset, max(step_order) as step_order from steps group by dataset) as last_order
        on last_order.dataset = steps.dataset and last_order.step_order = steps.step_order
),

splits as (
    select dataset, sum(n_remaining) as n_split
    from {{ model }}
    where step_order > {{ split_from }}
    group by dataset
)

select dataset, step_order, 'n_remaining is not the previous step''s minus n_excluded' as problem
from steps
where previous_remaining is not null and n_remaining <> previous_remaining - n_excluded

union all

select last_steps.dataset, null, 'the split rows do not hold the records the last step left'
from last_steps
left join splits on splits.dataset = last_steps.dataset
where coalesce(splits.n_split, 0) <> last_steps.n_remaining
{% endtest %}
