-- Which model scored which setting, and how to read it: one row per data set, model and setting the model's
-- predictions are read for. A model trained on full inputs scores every setting: its text_only and
-- tabular_only scores are a probe of that model with part of its input removed (inputs it never saw in
-- training). A model trained on an isolated setting (`--setting text_only`, named <name>-text_only) scores its
-- own setting: the study's modality-isolated reading with a model fitted to that input.

with model_settings as (
    select * from {{ ref('int_model_settings') }}
),

scored as (
    select
        dataset, model, setting,
        count(distinct case when variant = 'original' then record_id end) as n_originals,
        sum(case when variant = 'counterfactual' then 1 else 0 end) as n_counterfactuals
    from {{ ref('int_scored_inputs') }}
    group by dataset, model, setting
)

select
    model_settings.dataset,
    model_settings.model,
    model_settings.setting,
    model_settings.kind,
    model_settings.training_setting,
    model_settings.in_training_distribution,
    case
        when model_settings.training_setting is null then 'training setting not recorded (a base model scored as it is, or registered before settings were recorded)'
        when model_settings.setting = model_settings.training_setting then 'trained on this setting'
        when model_settings.training_setting = 'full' then 'full-input model probed with isolated inputs (out of its training distribution)'
        else 'scored outside its training setting (out of its training distribution)'
    end as reading,
    coalesce(scored.n_originals, 0) as n_originals,
    coalesce(scored.n_counterfactuals, 0) as n_counterfactuals
from model_settings
left join scored
    on scored.dataset = model_settings.dataset
    and scored.model = model_settings.model
    and scored.setting = model_settings.setting
