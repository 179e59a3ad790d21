select
    dataset,
    record_id,
    generator,
    language,
    wrong_sex_terms,
    wrong_sex_agreement,
    agreement_reasons,
    coalesce(original_numbers, '') as original_numbers,
    coalesce(copy_numbers, '') as copy_numbers,
    coalesce(original_drugs, '') as original_drugs,
    coalesce(copy_drugs, '') as copy_drugs,
    coalesce(original_negations, '') as original_negations,
    coalesce(copy_negations, '') as copy_negations,
    run_id,
    created_at
from {{ source('inference', 'counterfactual_checks') }}
