-- One row per cisgender-transgender pair (both presentation orders) of a model, prompt set, language,
-- discipline and condition: the allocation bootstrap's resampling unit, since the two answers about a pair are
-- not independent. Each pair is mapped to a "cell" (group and its counts). The resampling key depends on
-- discipline and pair only, so a pair gets the same weights in every model, language and condition.

with answers as (
    select * from {{ ref('stg_inference__implicit_allocation_responses') }}
),

units as (
    select
        model,
        prompt_set,
        language,
        discipline,
        explanation,
        symptoms,
        pair_id,
        count(*) as n_answers,
        count(case when chosen_group = 'transgender' then 1 end) as n_transgender,
        count(case when chosen_group = 'cisgender' then 1 end) as n_cisgender,
        count(case when parse_status = 'refused' then 1 end) as n_refused,
        count(case when parse_status = 'unparsed' then 1 end) as n_unparsed,
        count(case when trans_listed_first and chosen_group is not null then 1 end) as n_valid_trans_first,
        count(case when trans_listed_first and chosen_group = 'transgender' then 1 end) as n_transgender_trans_first,
        count(case when not trans_listed_first and chosen_group is not null then 1 end) as n_valid_cis_first,
        count(case when not trans_listed_first and chosen_group = 'transgender' then 1 end) as n_transgender_cis_first,
        count(case when chose_first_listed then 1 end) as n_chose_first
    from answers
    group by model, prompt_set, language, discipline, explanation, symptoms, pair_id
)

select
    *,
    {{ resample_key("'allocation|' || discipline || '|' || pair_id") }} as unit_key,
    dense_rank() over (
        order by model, prompt_set, language, discipline, explanation, symptoms, n_transgender, n_cisgender,
                 n_valid_trans_first, n_transgender_trans_first, n_valid_cis_first, n_transgender_cis_first,
                 n_chose_first
    ) as cell_id
from units
