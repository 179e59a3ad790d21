-- One exclusion_reason per record (null = kept): first the data set's own rules (links, levels), then content
-- that cannot be swapped to the other sex (keyword patterns per language, matched in the chief complaint,
-- history of present illness and past medical history; for Bordeaux the complaint label, triage note and history).

with records as (
    select * from {{ ref('int_triage_records_unioned') }}
),

-- One alternation of patterns per language (seed exclusion_keywords_<language>); a record is matched against
-- its own language's patterns only.
keyword_patterns as (
    select 'en' as language, {{ string_agg_ordered('pattern', "'|'", 'pattern') }} as alternatives
    from {{ ref('exclusion_keywords_en') }}

    union all

    select 'fr' as language, {{ string_agg_ordered('pattern', "'|'", 'pattern') }} as alternatives
    from {{ ref('exclusion_keywords_fr') }}
),

flagged as (
    select
        records.*,
        {{ regex_extract(
            "lower(concat_ws(' | ', records.chief_complaint, records.hpi, records.pmh))",
            "'(?i)(' || keyword_patterns.alternatives || ')'", 1) }} as matched_keyword
    from records
    left join keyword_patterns on keyword_patterns.language = records.language
)

select
    {{ star_except(ref('int_triage_records_unioned'), ['dataset_exclusion_reason'], ['matched_keyword']) }},
    coalesce(
        dataset_exclusion_reason,
        case when matched_keyword is not null then 'gender_specific_content' end
    ) as exclusion_reason
from flagged
