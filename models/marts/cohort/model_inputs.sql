-- Every input a triage model is trained on or scores, with a content-addressed id (md5 of the text) so that
-- identical inputs are scored once per model:
--   train split: the original record in every setting (a model is trained on one setting's inputs);
--   test split: the original and each counterfactual copy (one per generator) in every setting.

with cohort as (
    select * from {{ ref('triage_cohort') }}
),

counterfactuals as (
    select * from {{ ref('stg_inference__counterfactuals') }}
    where status = 'ok'
),

inputs as (
    {%- for setting, shown in counterfactual_settings().items() %}
    select
        cohort.dataset,
        cohort.record_id,
        cohort.split,
        '{{ setting }}' as setting,
        'original' as variant,
        cast(null as {{ type_text() }}) as generator,
        {{ "cohort.sex" if shown.shows_sex else "cast(null as " ~ type_text() ~ ")" }} as shown_sex,
        cohort.documented_level,
        {{ linearize_record(sex='cohort.sex' if shown.shows_sex else none, include_text=shown.shows_text,
                            hpi='cohort.hpi', pmh='cohort.pmh') }} as input_text
    from cohort

    union all

    select
        cohort.dataset,
        cohort.record_id,
        cohort.split,
        '{{ setting }}' as setting,
        'counterfactual' as variant,
        counterfactuals.generator,
        {{ "counterfactuals.counterfactual_sex" if shown.shows_sex else "cast(null as " ~ type_text() ~ ")" }} as shown_sex,
        cohort.documented_level,
        {{ linearize_record(sex='counterfactuals.counterfactual_sex' if shown.shows_sex else none,
                            include_text=shown.shows_text, hpi='counterfactuals.hpi', pmh='counterfactuals.pmh') }} as input_text
    from cohort
    inner join counterfactuals
        on counterfactuals.dataset = cohort.dataset
        and counterfactuals.record_id = cohort.record_id
    where cohort.split = 'test'
    {{ "union all" if not loop.last }}
    {%- endfor %}
)

select
    *,
    {{ digest_text('input_text') }} as input_id
from inputs
