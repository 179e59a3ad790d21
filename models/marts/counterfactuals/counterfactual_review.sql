-- The manual review of counterfactual copies per data set, language and generator: the share of sampled copies
-- that a clinician judged invalid, with its exact (Clopper-Pearson) 95% interval, beside what the automatic
-- checks said about the same copies. A copy judged by several reviewers counts once, as invalid when any of
-- them judged it invalid (the binomial unit is the copy).

with reviews as (
    select * from {{ ref('stg_inference__counterfactual_reviews') }}
),

diagnostics as (
    select dataset, record_id, generator, status, has_residual_signal
    from {{ ref('int_counterfactual_diagnostics') }}
),

copies as (
    select
        reviews.dataset,
        coalesce(max(reviews.language), '') as language,
        reviews.generator,
        reviews.record_id,
        count(*) as n_verdicts,
        max(case when reviews.judgement = 'invalid' then 1 else 0 end) as is_invalid
    from reviews
    group by reviews.dataset, reviews.generator, reviews.record_id
),

counts as (
    select
        copies.dataset,
        copies.language,
        copies.generator,
        count(*) as n_reviewed,
        sum(copies.is_invalid) as n_invalid,
        sum(copies.n_verdicts) as n_verdicts,
        count(*) filter (where diagnostics.has_residual_signal) as n_auto_flagged,
        count(*) filter (where diagnostics.has_residual_signal and copies.is_invalid = 1) as n_invalid_auto_flagged
    from copies
    left join diagnostics
        on diagnostics.dataset = copies.dataset
        and diagnostics.record_id = copies.record_id
        and diagnostics.generator = copies.generator
    group by copies.dataset, copies.language, copies.generator
),

intervals as (
    {{ clopper_pearson('counts', ['dataset', 'language', 'generator'], n='n_reviewed', k='n_invalid') }}
)

select
    counts.dataset,
    counts.language,
    counts.generator,
    counts.n_reviewed,
    counts.n_verdicts,
    counts.n_invalid,
    cast(counts.n_invalid as {{ biasmirror.type_double() }}) / counts.n_reviewed as invalid_share,
    {{ round_half_away('intervals.ci_low', 9) }} as ci_low,
    {{ round_half_away('intervals.ci_high', 9) }} as ci_high,
    counts.n_auto_flagged,
    counts.n_invalid_auto_flagged
from counts
inner join intervals
    on intervals.dataset = counts.dataset
    and intervals.language = counts.language
    and intervals.generator = counts.generator
