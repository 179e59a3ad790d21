select
    dataset,
    model,
    run_id,
    input_id,
    scored_level,
    generated_level,
    label_mass,
    checked_at
from {{ source('inference', 'scoring_parity_checks') }}
