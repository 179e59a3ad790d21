-- One row per word-association answer: the bootstrap's resampling unit. Each answer is mapped to a "cell"
-- (group and its four counts), so the bootstrap sums weights per cell, not per answer. The resampling key
-- depends on category and iteration only: iteration i of a category gets the same weights in every model,
-- prompt set and language (which saw the same words in the same order), so differences between them can be
-- bootstrapped as paired.

with responses as (
    select * from {{ ref('stg_inference__implicit_association_responses') }}
),

counts as (
    select
        model,
        prompt_set,
        language,
        category,
        iteration,
        count(case when valence = 'positive' and assigned_group = 'transgender' then 1 end) as positive_transgender,
        count(case when valence = 'negative' and assigned_group = 'transgender' then 1 end) as negative_transgender,
        count(case when valence = 'positive' and assigned_group = 'cisgender' then 1 end) as positive_cisgender,
        count(case when valence = 'negative' and assigned_group = 'cisgender' then 1 end) as negative_cisgender
    from {{ ref('stg_inference__implicit_association_assignments') }}
    group by model, prompt_set, language, category, iteration
),

units as (
    select
        responses.model,
        responses.prompt_set,
        responses.language,
        responses.category,
        responses.iteration,
        responses.parse_status,
        coalesce(counts.positive_transgender, 0) as positive_transgender,
        coalesce(counts.negative_transgender, 0) as negative_transgender,
        coalesce(counts.positive_cisgender, 0) as positive_cisgender,
        coalesce(counts.negative_cisgender, 0) as negative_cisgender,
        {{ resample_key("'association|' || responses.category || '|' || cast(responses.iteration as " ~ type_text() ~ ")") }} as unit_key
    from responses
    left join counts
        on counts.model = responses.model
        and counts.prompt_set = responses.prompt_set
        and counts.language = responses.language
        and counts.category = responses.category
        and counts.iteration = responses.iteration
)

select
    *,
    dense_rank() over (
        order by model, prompt_set, language, category, positive_transgender, negative_transgender,
                 positive_cisgender, negative_cisgender
    ) as cell_id
from units
