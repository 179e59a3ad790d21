-- Appointment-allocation answers: a cisgender-transgender pair shown in one order (1: cisgender candidate
-- listed first; 2: transgender candidate first), with the group of the candidate chosen (null: refused or
-- unparsed).

select
    run_id,
    source,
    backend,
    model,
    prompt_set,
    prompt_set_digest,
    design_seed,
    language,
    discipline,
    explanation,
    symptoms,
    pair_id,
    presentation_order,
    presentation_order = 2 as trans_listed_first,
    cis_persona_id,
    trans_persona_id,
    urgency,
    cis_symptom_id,
    trans_symptom_id,
    prompt,
    temperature,
    seed,
    request_key,
    response_text,
    finish_reason,
    reasoning,
    chosen_persona_id,
    chosen_group,
    case
        when chosen_group is null then null
        else (chosen_group = 'transgender') = (presentation_order = 2)
    end as chose_first_listed,
    parse_status,
    constrained,
    {{ implicit_decoding() }} as decoding,
    created_at
from {{ source('inference', 'implicit_allocation_responses') }}
