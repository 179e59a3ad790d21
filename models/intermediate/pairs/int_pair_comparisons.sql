-- The comparisons of audit.metric_comparisons, one row per pair of groups of a data set (side a, side b):
--   setting:   same model and generator; a is the earlier setting (full, text_only, tabular_only)
--   model:     same generator and setting; a is the model whose name sorts first, or, when var
--              comparison_reference_model names one, a is that model and b every other model: with many models
--              the comparisons (and the cost of the mart) then grow linearly instead of with every two models
--   generator: same model and setting; a is the generator whose name sorts first

{%- set settings = counterfactual_settings().keys() | list %}
{%- set reference_model = var('comparison_reference_model', none) %}
{%- set kinds = [
    ('setting', ['model', 'generator'], 'setting'),
    ('model', ['generator', 'setting'], 'model'),
    ('generator', ['model', 'setting'], 'generator'),
] %}

-- setting_order: its columns are read through select * (sqlfluff AL05 does not see it)
with setting_order as (
    select * from (values
        {%- for setting in settings %}
        ('{{ setting }}', {{ loop.index }}){{ "," if not loop.last }}
        {%- endfor %}
    ) as setting_order (setting, setting_rank)  -- noqa: AL05
),

groups as (
    select groups.*, coalesce(setting_order.setting_rank, {{ settings | length + 1 }}) as setting_rank
    from {{ ref('int_pair_groups') }} as groups
    left join setting_order using (setting)
),

comparisons as (
    {%- for kind, same, varying in kinds %}
    select
        '{{ kind }}' as comparison,
        a.dataset,
        a.group_id as group_a,
        b.group_id as group_b,
        a.model as model_a, a.generator as generator_a, a.setting as setting_a,
        b.model as model_b, b.generator as generator_b, b.setting as setting_b
    from groups as a
    inner join groups as b
        on b.dataset = a.dataset
        {%- for column in same %}
        and b.{{ column }} = a.{{ column }}
        {%- endfor %}
        {%- if varying == 'model' and reference_model is not none %}
        and a.model = '{{ reference_model | string | replace("'", "''") }}' and b.model <> a.model
        {%- elif varying == 'setting' %}
        and (a.setting_rank < b.setting_rank or (a.setting_rank = b.setting_rank and a.setting < b.setting))
        {%- else %}
        and a.{{ varying }} < b.{{ varying }}
        {%- endif %}
    {{ "union all" if not loop.last }}
    {%- endfor %}
)

select
    cast(row_number() over (order by comparison, dataset, model_a, generator_a, setting_a, model_b, generator_b, setting_b) as integer) as comparison_id,
    *
from comparisons
