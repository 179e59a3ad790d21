-- One row per counterfactual copy (every generator, placebo copies included) with its validity diagnostics:
-- the Python-computed checks and similarities (null until computed), and the length ratio computed here.
-- Flagged copies are kept (status, flag_reason) so that the quality mart can report how many were left out.

with copies as (
    select * from {{ ref('stg_inference__counterfactuals') }}
),

cohort as (
    select dataset, record_id, language, hpi, pmh from {{ ref('triage_cohort') }}
),

checks as (
    select * from {{ ref('stg_inference__counterfactual_checks') }}
),

similarity as (
    select * from {{ ref('stg_inference__counterfactual_similarity') }}
),

joined as (
    select
        copies.dataset,
        coalesce(cohort.language, checks.language) as language,
        copies.generator,
        copies.record_id,
        copies.original_sex,
        copies.counterfactual_sex,
        copies.counterfactual_sex = copies.original_sex as is_placebo,
        copies.status,
        copies.flag_reason,
        copies.n_replacements,
        coalesce(length(cohort.hpi), 0) + coalesce(length(cohort.pmh), 0) as original_length,
        coalesce(length(copies.hpi), 0) + coalesce(length(copies.pmh), 0) as copy_length,
        checks.record_id is not null as is_checked,
        checks.wrong_sex_terms,
        checks.wrong_sex_agreement,
        checks.agreement_reasons,
        checks.second_opinion_residual,
        checks.content_changes,
        checks.content_change_reasons,
        checks.round_trip_differs,
        checks.original_numbers = checks.copy_numbers as numbers_preserved,
        checks.original_drugs = checks.copy_drugs as drugs_preserved,
        checks.original_negations = checks.copy_negations as negations_preserved,
        similarity.cosine_hpi,
        similarity.cosine_pmh
    from copies
    left join cohort
        on cohort.dataset = copies.dataset
        and cohort.record_id = copies.record_id
    left join checks
        on checks.dataset = copies.dataset
        and checks.record_id = copies.record_id
        and checks.generator = copies.generator
    left join similarity
        on similarity.dataset = copies.dataset
        and similarity.record_id = copies.record_id
        and similarity.generator = copies.generator
)

select
    *,
    case when status = 'ok' and original_length > 0 then cast(copy_length as {{ biasmirror.type_double() }}) / original_length end as length_ratio,
    wrong_sex_terms > 0 as has_wrong_sex_terms,
    wrong_sex_agreement > 0 as has_wrong_sex_agreement,
    -- any residual signal of the wrong sex: a lexicon word or an agreeing word (null until both are checked)
    wrong_sex_terms > 0 or wrong_sex_agreement > 0 as has_residual_signal,
    numbers_preserved and drugs_preserved and negations_preserved as content_preserved,
    second_opinion_residual > 0 as has_second_opinion_residual,
    content_changes > 0 as has_content_change,
    -- mean over the fields the record has
    case
        when cosine_hpi is not null and cosine_pmh is not null then (cosine_hpi + cosine_pmh) / 2
        else coalesce(cosine_hpi, cosine_pmh)
    end as cosine_similarity
from joined
