-- Answers to the explicit questions (would the model treat a transgender and a cisgender person differently?).

select
    run_id,
    backend,
    model,
    prompt_set,
    prompt_set_digest,
    language,
    question_id,
    question,
    temperature,
    seed,
    request_key,
    response_text,
    finish_reason,
    stance,
    created_at
from {{ source('inference', 'implicit_explicit_answers') }}
