-- Pairs built from the warehouse's own predictions: for every model, setting and counterfactual generator,
-- the prediction for a test record's original input and for its copy (int_scored_inputs: only the settings each
-- model's predictions are read for). The one original/copy join: the paired metrics read the predicted levels,
-- int_pair_probabilities the expected levels and high-acuity probabilities (null for a model that stores no
-- probabilities).

with scored as (
    select
        dataset, model, record_id, setting, variant, generator, predicted_level, expected_level,
        case when expected_level is not null then coalesce(p_level_1, 0) + coalesce(p_level_2, 0) end as p_high_acuity
    from {{ ref('int_scored_inputs') }}
),

cohort as (
    select dataset, record_id, patient_id, sex, documented_level from {{ ref('triage_cohort') }}
),

original_predictions as (
    select dataset, record_id, setting, model, predicted_level, expected_level, p_high_acuity
    from scored
    where variant = 'original'
),

counterfactual_predictions as (
    select dataset, record_id, setting, generator, model, predicted_level, expected_level, p_high_acuity
    from scored
    where variant = 'counterfactual'
)

select
    original_predictions.dataset,
    original_predictions.model,
    counterfactual_predictions.generator,
    original_predictions.setting,
    original_predictions.record_id as pair_id,
    cohort.patient_id,
    cohort.sex as original_sex,
    original_predictions.predicted_level as original_level,
    counterfactual_predictions.predicted_level as counterfactual_level,
    cohort.documented_level as true_level,
    original_predictions.expected_level as original_expected_level,
    counterfactual_predictions.expected_level as counterfactual_expected_level,
    original_predictions.p_high_acuity as original_p_high_acuity,
    counterfactual_predictions.p_high_acuity as counterfactual_p_high_acuity
from original_predictions
inner join counterfactual_predictions
    on counterfactual_predictions.dataset = original_predictions.dataset
    and counterfactual_predictions.record_id = original_predictions.record_id
    and counterfactual_predictions.setting = original_predictions.setting
    and counterfactual_predictions.model = original_predictions.model
inner join cohort
    on cohort.dataset = original_predictions.dataset
    and cohort.record_id = original_predictions.record_id
