-- Word-association answers (one per model, prompt set, language, category and iteration), generated or imported.

select
    run_id,
    source,
    backend,
    model,
    prompt_set,
    prompt_set_digest,
    design_seed,
    language,
    category,
    iteration,
    template_id,
    group_order,
    prompt,
    temperature,
    seed,
    request_key,
    response_text,
    finish_reason,
    parse_status,
    constrained,
    {{ implicit_decoding() }} as decoding,
    n_words,
    n_assigned,
    created_at
from {{ source('inference', 'implicit_association_responses') }}
