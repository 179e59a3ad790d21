-- Every data set's triage records in one shape, so that exclusions, the split, linearization and all audit
-- models are shared. Data-set differences (units, codes, links) are resolved upstream in each data set's models.
-- The shape is the one column list below, selected by name from each data set's model (a missing column fails
-- the build; an extra one is left out; column order upstream does not matter).

{{ config(materialized='view') }}

{%- set record_columns = [
    'dataset', 'language', 'record_id', 'patient_id', 'arrived_at', 'sex', 'age', 'arrival_mode',
    'temperature_c', 'heart_rate', 'resp_rate', 'o2_saturation', 'systolic_bp', 'diastolic_bp', 'pain_score',
    'pain_text', 'chief_complaint', 'chief_complaint_class', 'hpi', 'pmh', 'nurse_id', 'nurse_sex',
    'documented_level', 'dataset_exclusion_reason',
] %}
{%- set dataset_models = [ref('int_mimic__ed_stays_linked'), ref('int_bordeaux__visits_prepared')] %}

{% for dataset_model in dataset_models %}
select {{ record_columns | join(', ') }}
from {{ dataset_model }}
{% if not loop.last %}
union all
{% endif %}
{%- endfor %}
