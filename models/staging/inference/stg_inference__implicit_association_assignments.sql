-- Each word shown in a word-association prompt, with the group the answer gave it (null: none or both).

select
    run_id,
    model,
    prompt_set,
    language,
    category,
    iteration,
    position,
    word_id,
    word,
    valence,
    assigned_group,
    word_status
from {{ source('inference', 'implicit_association_assignments') }}
