-- How well each model's answers could be read, per model, prompt set, language, task and condition, and how
-- they were decoded (free, or constrained to the format): the share of answers the parser read a choice from,
-- with its exact (Clopper-Pearson) 95% interval, beside refusals, unparsed and truncated answers. A parsed share
-- far from 1 means the study's measures rest on the answers a model happened to format well.

with associations as (
    select
        model,
        prompt_set,
        language,
        'associations' as task,
        cast(null as boolean) as explanation,
        cast(null as boolean) as symptoms,
        decoding,
        parse_status,
        parse_status in ('ok', 'partial') as is_parsed,
        finish_reason,
        n_words,
        n_assigned
    from {{ ref('stg_inference__implicit_association_responses') }}
),

allocations as (
    select
        model,
        prompt_set,
        language,
        'allocation' as task,
        explanation,
        symptoms,
        decoding,
        parse_status,
        parse_status in ('ok', 'untagged') as is_parsed,
        finish_reason,
        cast(null as integer) as n_words,
        cast(null as integer) as n_assigned
    from {{ ref('stg_inference__implicit_allocation_responses') }}
),

answers as (
    select * from associations
    union all
    select * from allocations
),

counts as (
    select
        model,
        prompt_set,
        language,
        task,
        explanation,
        symptoms,
        decoding,
        count(*) as n_answers,
        count(case when is_parsed then 1 end) as n_parsed,
        count(case when parse_status = 'ok' then 1 end) as n_ok,
        count(case when parse_status in ('partial', 'untagged') then 1 end) as n_lenient,
        count(case when parse_status = 'refused' then 1 end) as n_refused,
        count(case when parse_status = 'unparsed' then 1 end) as n_unparsed,
        count(case when finish_reason = 'length' then 1 end) as n_truncated,
        cast(sum(n_words) as bigint) as n_words,
        cast(sum(n_assigned) as bigint) as n_words_assigned
    from answers
    group by model, prompt_set, language, task, explanation, symptoms, decoding
),

intervals as (
    {{ clopper_pearson('counts', ['model', 'prompt_set', 'language', 'task', 'explanation', 'symptoms', 'decoding'],
                       n='n_answers', k='n_parsed') | indent(4) }}
)

select
    counts.model,
    counts.prompt_set,
    counts.language,
    counts.task,
    counts.explanation,
    counts.symptoms,
    counts.decoding,
    counts.n_answers,
    counts.n_parsed,
    cast(counts.n_parsed as {{ biasmirror.type_double() }}) / counts.n_answers as parsed_share,
    {{ round_half_away('intervals.ci_low', 9) }} as ci_low,
    {{ round_half_away('intervals.ci_high', 9) }} as ci_high,
    counts.n_ok,
    counts.n_lenient,
    counts.n_refused,
    counts.n_unparsed,
    counts.n_truncated,
    counts.n_words,
    counts.n_words_assigned,
    cast(counts.n_words_assigned as {{ biasmirror.type_double() }}) / nullif(counts.n_words, 0) as words_assigned_share
from counts
inner join intervals
    on intervals.model = counts.model
    and intervals.prompt_set = counts.prompt_set
    and intervals.language = counts.language
    and intervals.task = counts.task
    and intervals.explanation is not distinct from counts.explanation
    and intervals.symptoms is not distinct from counts.symptoms
    and intervals.decoding = counts.decoding
