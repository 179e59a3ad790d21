select
    dataset,
    record_id,
    generator,
    language,
    lower(trim(judgement)) as judgement,
    reason,
    reviewer,
    source_file,
    run_id,
    imported_at
from {{ source('inference', 'counterfactual_reviews') }}
