select
    dataset,
    record_id,
    generator,
    upper(original_sex) as original_sex,
    upper(counterfactual_sex) as counterfactual_sex,
    hpi,
    pmh,
    status,
    flag_reason,
    n_replacements,
    run_id,
    created_at
from {{ source('inference', 'counterfactuals') }}
