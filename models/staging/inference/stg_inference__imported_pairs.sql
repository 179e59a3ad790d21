select
    dataset,
    model,
    coalesce(setting, 'full') as setting,
    pair_id,
    upper(original_sex) as original_sex,
    original_level,
    counterfactual_level,
    true_level,
    nullif(trim(patient_id), '') as patient_id,
    import_id,
    imported_at
from {{ source('inference', 'imported_pairs') }}
