-- Every test input a model scored, in the settings its predictions are read for (int_model_settings): one row
-- per data set, model, test record, setting, variant (original or counterfactual) and generator, with the
-- prediction. The pairs, probability shifts, noise floor and sex gap all start from here.

with inputs as (
    select dataset, record_id, setting, variant, generator, input_id
    from {{ ref('model_inputs') }}
    where split = 'test'
),

predictions as (
    select * from {{ ref('stg_inference__predictions') }}
),

model_settings as (
    select dataset, model, setting from {{ ref('int_model_settings') }}
)

select
    inputs.dataset,
    predictions.model,
    inputs.record_id,
    inputs.setting,
    inputs.variant,
    inputs.generator,
    inputs.input_id,
    predictions.predicted_level,
    predictions.expected_level,
    predictions.p_level_1,
    predictions.p_level_2,
    predictions.p_level_3,
    predictions.p_level_4,
    predictions.p_level_5,
    predictions.label_mass,
    predictions.run_id
from inputs
inner join predictions
    on predictions.dataset = inputs.dataset
    and predictions.input_id = inputs.input_id
inner join model_settings
    on model_settings.dataset = inputs.dataset
    and model_settings.model = predictions.model
    and model_settings.setting = inputs.setting
