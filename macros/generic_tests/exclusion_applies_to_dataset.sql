{#- Fails once per (data set, reason) whose exclusion_reason is not a step of seed exclusion_steps that applies
    to the record's data set (applies_to = 'all' or the data set): a model may only use its own steps, so that
    the flowchart (audit.cohort_flow) accounts for every excluded record. -#}
{% test exclusion_applies_to_dataset(model, column_name, dataset_column='dataset') %}
select records.{{ dataset_column }} as dataset, records.{{ column_name }} as exclusion_reason, count(*) as n_records
from {{ model }} as records
left join {{ ref('exclusion_steps') }} as steps
    on steps.exclusion_reason = records.{{ column_name }}
    and steps.applies_to in ('all', records.{{ dataset_column }})
where records.{{ column_name }} is not null
    and steps.exclusion_reason is null
group by records.{{ dataset_column }}, records.{{ column_name }}
{% endtest %}
