-- Each pair of the warehouse's own predictions (test record x model x generator x setting; int_model_pairs) with
-- the level probabilities of its female and its male presentation: the expected level and P(level <= 2), the
-- high-acuity probability. Only models that store probabilities (expected_level not null) and only sex-swapped
-- copies (a placebo copy keeps the sex and has no female/male contrast) are kept. unit_key is the pair's resampling
-- unit, as in int_pairs_unioned: its patient when known (var bootstrap_unit = 'patient', the default), else the
-- pair alone.

{%- set unit = resampling_unit('dataset', 'pair_id', 'patient_id') %}

with swaps as (
    select dataset, record_id, generator, original_sex
    from {{ ref('stg_inference__counterfactuals') }}
    where status = 'ok' and counterfactual_sex <> original_sex
),

pairs as (
    select
        model_pairs.dataset,
        model_pairs.model,
        model_pairs.generator,
        model_pairs.setting,
        model_pairs.pair_id,
        model_pairs.patient_id,
        swaps.original_sex,
        case swaps.original_sex when 'F' then model_pairs.original_expected_level else model_pairs.counterfactual_expected_level end as female_expected_level,
        case swaps.original_sex when 'M' then model_pairs.original_expected_level else model_pairs.counterfactual_expected_level end as male_expected_level,
        case swaps.original_sex when 'F' then model_pairs.original_p_high_acuity else model_pairs.counterfactual_p_high_acuity end as female_p_high_acuity,
        case swaps.original_sex when 'M' then model_pairs.original_p_high_acuity else model_pairs.counterfactual_p_high_acuity end as male_p_high_acuity
    from {{ ref('int_model_pairs') }} as model_pairs
    inner join swaps
        on swaps.dataset = model_pairs.dataset
        and swaps.record_id = model_pairs.pair_id
        and swaps.generator = model_pairs.generator
    where model_pairs.original_expected_level is not null
        and model_pairs.counterfactual_expected_level is not null
)

select
    *,
    female_expected_level - male_expected_level as expected_level_shift,
    female_p_high_acuity - male_p_high_acuity as p_high_acuity_shift,
    {{ unit.unit_key }} as unit_key
from pairs
