-- Validity of the counterfactual copies per data set, language and generator (placebo generators included):
-- how many were flagged, and over the copies that enter the pairs (status ok): residual words of the wrong sex
-- (lexicon words, and words that still agree with the wrong sex: the morphology-aware check),
-- clinical content preserved, length ratio, and semantic similarity (when computed); and the second opinion
-- (counterfactuals/second_opinion.py): residual patient words it finds, content changes (words changed that do
-- not refer to the patient), and copies whose swap back differs from the original. Shares are over the copies
-- that have the check (a copy without checks, or a language without a rule lexicon, is left out of a share).

with diagnostics as (
    select * from {{ ref('int_counterfactual_diagnostics') }}
),

ok as (
    select * from diagnostics where status = 'ok'
),

-- the residual checks over every copy that has them, flagged ones included: the generators flag copies with
-- residuals, so this is the share of copies the checks caught (and left out of the pairs) plus any left in
residuals as (
    select
        dataset,
        language,
        generator,
        count(wrong_sex_agreement) as n_agreement_checked,
        cast(avg(case when has_wrong_sex_agreement then 1 when not has_wrong_sex_agreement then 0 end) as {{ biasmirror.type_double() }}) as residual_agreement_share,
        cast(avg(wrong_sex_agreement) as {{ biasmirror.type_double() }}) as mean_wrong_sex_agreement,
        cast(avg(case when has_residual_signal then 1 when not has_residual_signal then 0 end) as {{ biasmirror.type_double() }}) as residual_any_share,
        -- the second opinion (a reading of the original apart from the swapper, aligned with the copy)
        count(content_changes) as n_second_opinion_checked,
        cast(avg(case when has_second_opinion_residual then 1 when not has_second_opinion_residual then 0 end) as {{ biasmirror.type_double() }}) as second_opinion_residual_share,
        cast(avg(case when has_content_change then 1 when not has_content_change then 0 end) as {{ biasmirror.type_double() }}) as content_change_share,
        cast(avg(content_changes) as {{ biasmirror.type_double() }}) as mean_content_changes,
        cast(avg(case when round_trip_differs then 1 when not round_trip_differs then 0 end) as {{ biasmirror.type_double() }}) as round_trip_differs_share
    from diagnostics
    group by dataset, language, generator
),

counts as (
    select
        dataset,
        language,
        generator,
        bool_or(is_placebo) as is_placebo,
        count(*) as n_copies,
        count(*) filter (where status = 'ok') as n_ok,
        count(*) filter (where status = 'flagged') as n_flagged
    from diagnostics
    group by dataset, language, generator
),

quality as (
    select
        dataset,
        language,
        generator,
        count(*) filter (where is_checked) as n_checked,
        cast(avg(case when has_wrong_sex_terms then 1 when not has_wrong_sex_terms then 0 end) as {{ biasmirror.type_double() }}) as residual_share,
        cast(avg(wrong_sex_terms) as {{ biasmirror.type_double() }}) as mean_wrong_sex_terms,

        cast(avg(case when numbers_preserved then 1 when not numbers_preserved then 0 end) as {{ biasmirror.type_double() }}) as numbers_preserved_share,
        cast(avg(case when drugs_preserved then 1 when not drugs_preserved then 0 end) as {{ biasmirror.type_double() }}) as drugs_preserved_share,
        cast(avg(case when negations_preserved then 1 when not negations_preserved then 0 end) as {{ biasmirror.type_double() }}) as negations_preserved_share,
        cast(avg(case when content_preserved then 1 when not content_preserved then 0 end) as {{ biasmirror.type_double() }}) as content_preserved_share,
        cast(avg(length_ratio) as {{ biasmirror.type_double() }}) as mean_length_ratio,
        min(length_ratio) as min_length_ratio,
        max(length_ratio) as max_length_ratio,
        count(cosine_similarity) as n_with_similarity,
        cast(avg(cosine_similarity) as {{ biasmirror.type_double() }}) as mean_cosine_similarity,
        {{ quantile_cont('cosine_similarity', 0.05) }} as p05_cosine_similarity,
        min(cosine_similarity) as min_cosine_similarity
    from ok
    group by dataset, language, generator
)

select
    counts.dataset,
    counts.language,
    counts.generator,
    counts.is_placebo,
    counts.n_copies,
    counts.n_ok,
    counts.n_flagged,
    cast(counts.n_flagged as {{ biasmirror.type_double() }}) / counts.n_copies as flagged_share,
    coalesce(quality.n_checked, 0) as n_checked,
    quality.residual_share,
    quality.mean_wrong_sex_terms,
    coalesce(residuals.n_agreement_checked, 0) as n_agreement_checked,
    residuals.residual_agreement_share,
    residuals.mean_wrong_sex_agreement,
    residuals.residual_any_share,
    coalesce(residuals.n_second_opinion_checked, 0) as n_second_opinion_checked,
    residuals.second_opinion_residual_share,
    residuals.content_change_share,
    residuals.mean_content_changes,
    residuals.round_trip_differs_share,
    quality.numbers_preserved_share,
    quality.drugs_preserved_share,
    quality.negations_preserved_share,
    quality.content_preserved_share,
    quality.mean_length_ratio,
    quality.min_length_ratio,
    quality.max_length_ratio,
    coalesce(quality.n_with_similarity, 0) as n_with_similarity,
    quality.mean_cosine_similarity,
    quality.p05_cosine_similarity,
    quality.min_cosine_similarity
from counts
left join quality
    on quality.dataset = counts.dataset
    and quality.language is not distinct from counts.language
    and quality.generator = counts.generator
left join residuals
    on residuals.dataset = counts.dataset
    and residuals.language is not distinct from counts.language
    and residuals.generator = counts.generator
