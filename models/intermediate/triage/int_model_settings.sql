-- Which settings each model's predictions are read for: one row per data set, model and setting. A model
-- registered in inference.triage_models lists them (scored_settings: every setting for a model trained on full
-- inputs, its own setting for a model trained on an isolated one, or what `--setting` chose); a model with
-- predictions but no registry row (older warehouses) is read in every setting. Predictions are keyed by input
-- text, and an input can be shared by two settings (a record without notes has the same full and tabular-only
-- input), so this list, not the text, decides which settings a model's predictions count for.

{%- set settings = counterfactual_settings().keys() | list %}

with settings as (
    {%- for setting in settings %}
    select '{{ setting }}' as setting{{ " union all" if not loop.last }}
    {%- endfor %}
),

scored_models as (
    select distinct dataset, model from {{ ref('stg_inference__predictions') }}
),

registry as (
    select dataset, model, kind, training_setting, scored_settings
    from {{ ref('stg_inference__triage_models') }}
)

select
    scored_models.dataset,
    scored_models.model,
    settings.setting,
    registry.kind,
    registry.training_setting,
    case when registry.training_setting is not null then settings.setting = registry.training_setting end as in_training_distribution
from scored_models
cross join settings
left join registry
    on registry.dataset = scored_models.dataset
    and registry.model = scored_models.model
where registry.scored_settings is null
    or position(',' || settings.setting || ',' in ',' || registry.scored_settings || ',') > 0
