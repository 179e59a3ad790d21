-- All pairs to audit, from the warehouse's own predictions and from imports, with their direction and the
-- levels of the female and male presentations. Levels are ordinal, 1 = most urgent; delta > 0 means the
-- copy got a less severe level than the original.

with pairs as (
    select dataset, model, generator, setting, pair_id, original_sex, original_level, counterfactual_level,
           true_level, 'model_inputs' as pair_source
    from {{ ref('int_model_pairs') }}

    union all

    select dataset, model, 'imported' as generator, setting, pair_id, original_sex, original_level,
           counterfactual_level, true_level, 'import' as pair_source
    from {{ ref('stg_inference__imported_pairs') }}
)

select
    dataset,
    model,
    generator,
    setting,
    pair_id,
    pair_source,
    original_sex,
    case original_sex when 'M' then 'm_to_f' when 'F' then 'f_to_m' end as direction,
    original_level,
    counterfactual_level,
    counterfactual_level - original_level as delta,
    case original_sex when 'F' then original_level else counterfactual_level end as female_level,
    case original_sex when 'M' then original_level else counterfactual_level end as male_level,
    true_level,
    {{ resample_key("dataset || '|' || pair_id") }} as unit_key
from pairs
where original_level is not null and counterfactual_level is not null
