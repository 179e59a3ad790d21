-- All pairs to audit, from the warehouse's own predictions and from imports, with their direction and the
-- levels of the female and male presentations. Levels are ordinal, 1 = most urgent; delta > 0 means the
-- copy got a less severe level than the original. unit_key identifies the pair's resampling unit: its patient
-- when known (var bootstrap_unit = 'patient', the default) or the pair alone (unit_is_pair).

{%- set unit = resampling_unit('dataset', 'pair_id', 'patient_id') %}

with pairs as (
    select dataset, model, generator, setting, pair_id, patient_id, original_sex, original_level,
           counterfactual_level, true_level, 'model_inputs' as pair_source
    from {{ ref('int_model_pairs') }}

    union all

    select dataset, model, 'imported' as generator, setting, pair_id, patient_id, original_sex, original_level,
           counterfactual_level, true_level, 'import' as pair_source
    from {{ ref('stg_inference__imported_pairs') }}
)

select
    dataset,
    model,
    generator,
    setting,
    pair_id,
    patient_id,
    pair_source,
    original_sex,
    case original_sex when 'M' then 'm_to_f' when 'F' then 'f_to_m' end as direction,
    original_level,
    counterfactual_level,
    counterfactual_level - original_level as delta,
    case original_sex when 'F' then original_level else counterfactual_level end as female_level,
    case original_sex when 'M' then original_level else counterfactual_level end as male_level,
    true_level,
    {{ unit.unit_is_pair }} as unit_is_pair,
    {{ unit.unit_key }} as unit_key,
    -- integer keys of the group and the pair, for the long relations of the bootstrap (int_pair_members)
    {{ hash64("concat_ws(chr(31), dataset, model, generator, setting)") }} as group_id,
    {{ hash64("dataset || chr(31) || pair_id") }} as pair_key
from pairs
where original_level is not null and counterfactual_level is not null
