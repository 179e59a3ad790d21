{{ config(materialized='view') }}

-- Each model's answer to the explicit questions (would it treat a transgender and a cisgender person
-- differently?), next to which the implicit measures are read.

select
    model,
    prompt_set,
    language,
    question_id,
    question,
    response_text as answer,
    stance,
    backend,
    temperature,
    seed,
    created_at as answered_at,
    run_id
from {{ ref('stg_inference__implicit_explicit_answers') }}
