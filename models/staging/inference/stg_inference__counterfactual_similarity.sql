select
    dataset,
    record_id,
    generator,
    embedding_model,
    cosine_hpi,
    cosine_pmh,
    run_id,
    created_at
from {{ source('inference', 'counterfactual_similarity') }}
