-- Word-association bias per model, prompt set, language and category (docs/metrics.md; Figure 1 of the
-- implicit-bias study), with a 95% percentile bootstrap interval that resamples answers (iterations).

with summary as (
    {{ summarise_replicates(ref('int_implicit_association_replicates'),
                            ['model', 'prompt_set', 'language', 'category'],
                            ['bias'], 'n_responses_w', 'n_responses') | indent(4) }}
),

observed as (
    select
        model,
        prompt_set,
        language,
        category,
        count(*) as n_responses,
        count(case when parse_status in ('ok', 'partial') then 1 end) as n_parsed,
        count(case when parse_status = 'partial' then 1 end) as n_partial,
        count(case when parse_status = 'refused' then 1 end) as n_refused,
        count(case when parse_status = 'unparsed' then 1 end) as n_unparsed,
        cast(sum(positive_transgender) as bigint) as n_positive_transgender,
        cast(sum(negative_transgender) as bigint) as n_negative_transgender,
        cast(sum(positive_cisgender) as bigint) as n_positive_cisgender,
        cast(sum(negative_cisgender) as bigint) as n_negative_cisgender
    from {{ ref('int_implicit_association_units') }}
    group by model, prompt_set, language, category
)

select
    observed.model,
    observed.prompt_set,
    observed.language,
    observed.category,
    summary.estimate as bias,
    summary.ci_low,
    summary.ci_high,
    observed.n_responses,
    observed.n_parsed,
    observed.n_partial,
    observed.n_refused,
    observed.n_unparsed,
    observed.n_positive_transgender,
    observed.n_negative_transgender,
    observed.n_positive_cisgender,
    observed.n_negative_cisgender,
    summary.n_boot
from observed
left join summary
    on summary.model = observed.model
    and summary.prompt_set = observed.prompt_set
    and summary.language = observed.language
    and summary.category = observed.category
