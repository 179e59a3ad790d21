-- Per cohort record, the strata derived from its content: the presentation group (keyword patterns per
-- language, seed presentation_groups) and the age band (var age_band_edges).
--
-- Presentation group: the chief complaint is matched first; only a record whose chief complaint matches no
-- group is matched on its history of present illness, after negated clauses are removed (seed negation_cues:
-- "denies fever, chills" is not a fever). When several groups match the same field, the lowest priority number
-- wins (seed column priority). No match: 'other'.

{#- at parse time a malformed value is left to validate_vars (on-run-start), which names it -#}
{%- set edges = var('age_band_edges') if execute else [0] %}

with records as (
    select dataset, record_id, language, age, chief_complaint, hpi from {{ ref('triage_cohort') }}
),

groups as (
    select language, presentation_group, priority, '(?i)' || pattern as pattern from {{ ref('presentation_groups') }}
),

negations as (
    select language, '(?i)(' || {{ string_agg_ordered('pattern', "'|'", 'pattern') }} || ')' as pattern
    from {{ ref('negation_cues') }}
    group by language
),

texts as (
    select
        records.dataset,
        records.record_id,
        records.language,
        lower(coalesce(records.chief_complaint, '')) as complaint_text,
        coalesce({{ regex_replace_all("lower(coalesce(records.hpi, ''))", "negations.pattern", "' '") }},
                 lower(coalesce(records.hpi, ''))) as hpi_text
    from records
    left join negations on negations.language = records.language
),

matches as (
    select texts.dataset, texts.record_id, groups.presentation_group, groups.priority, 1 as field_rank,
           'chief_complaint' as matched_field
    from texts
    inner join groups on groups.language = texts.language
    where {{ regex_matches('texts.complaint_text', 'groups.pattern') }}

    union all

    select texts.dataset, texts.record_id, groups.presentation_group, groups.priority, 2, 'hpi'
    from texts
    inner join groups on groups.language = texts.language
    where {{ regex_matches('texts.hpi_text', 'groups.pattern') }}
),

best_match as (
    select dataset, record_id, presentation_group, matched_field
    from (
        select *, row_number() over (partition by dataset, record_id order by field_rank, priority, presentation_group) as rank
        from matches
    ) as ranked
    where rank = 1
)

select
    records.dataset,
    records.record_id,
    coalesce(best_match.presentation_group, 'other') as presentation_group,
    best_match.matched_field as presentation_matched_field,
    case
        when records.age is null then null
        {%- for edge in edges %}
        {%- if loop.first %}
        when records.age < {{ edge }} then '<{{ edge }}'
        {%- endif %}
        {%- if not loop.last %}
        when records.age < {{ edges[loop.index] }} then '{{ edge }}-{{ edges[loop.index] - 1 }}'
        {%- else %}
        else '{{ edge }}+'
        {%- endif %}
        {%- endfor %}
    end as age_band
from records
left join best_match using (dataset, record_id)
