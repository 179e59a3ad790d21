-- Each pair of the warehouse's own predictions (test record x model x generator x setting) with the level
-- probabilities of its female and its male presentation: the expected level and P(level <= 2), the high-acuity
-- probability. Only models that store probabilities (expected_level not null) and only sex-swapped copies
-- (a placebo copy keeps the sex and has no female/male contrast) are kept.

with scored as (
    select
        dataset, model, record_id, setting, variant, generator, expected_level,
        coalesce(p_level_1, 0) + coalesce(p_level_2, 0) as p_high_acuity
    from {{ ref('int_scored_inputs') }}
    where expected_level is not null
),

swaps as (
    select dataset, record_id, generator, original_sex
    from {{ ref('stg_inference__counterfactuals') }}
    where status = 'ok' and counterfactual_sex <> original_sex
),

originals as (
    select dataset, record_id, setting, model, expected_level, p_high_acuity
    from scored
    where variant = 'original'
),

copies as (
    select dataset, record_id, setting, generator, model, expected_level, p_high_acuity
    from scored
    where variant = 'counterfactual'
),

pairs as (
    select
        originals.dataset,
        originals.model,
        copies.generator,
        originals.setting,
        originals.record_id as pair_id,
        swaps.original_sex,
        case swaps.original_sex when 'F' then originals.expected_level else copies.expected_level end as female_expected_level,
        case swaps.original_sex when 'M' then originals.expected_level else copies.expected_level end as male_expected_level,
        case swaps.original_sex when 'F' then originals.p_high_acuity else copies.p_high_acuity end as female_p_high_acuity,
        case swaps.original_sex when 'M' then originals.p_high_acuity else copies.p_high_acuity end as male_p_high_acuity
    from originals
    inner join copies
        on copies.dataset = originals.dataset
        and copies.record_id = originals.record_id
        and copies.setting = originals.setting
        and copies.model = originals.model
    inner join swaps
        on swaps.dataset = copies.dataset
        and swaps.record_id = copies.record_id
        and swaps.generator = copies.generator
)

select
    *,
    female_expected_level - male_expected_level as expected_level_shift,
    female_p_high_acuity - male_p_high_acuity as p_high_acuity_shift,
    {{ resample_key("dataset || '|' || pair_id") }} as unit_key
from pairs
