-- History of present illness and past medical history of each admission's discharge summary, cut down to what
-- was known at triage time (rules in the note_section_rules seed).

with notes as (
    select * from {{ ref('stg_mimic__discharge_notes') }}
    where note_type is null or note_type = 'DS'
    -- one summary per admission: the last one written
    qualify row_number() over (partition by hadm_id order by note_seq desc nulls last, note_id desc) = 1
),

rules as (
    select * from {{ ref('note_section_rules') }}
),

-- A section runs from its header line to the next known header line (or the end of the note).
next_header as (
    select string_agg({{ regex_escape('pattern') }}, '|' order by pattern) as alternatives
    from rules
    where rule_type = 'section'
),

kept_sections as (
    select
        notes.hadm_id,
        notes.note_id,
        rules.output_field,
        {{ regex_extract(
            'notes.note_text',
            "'(?s)(?:^|\\n)[ \\t]*' || " ~ regex_escape('rules.pattern') ~ " || ':[ \\t]*\\n?(.*?)(?:\\n[ \\t]*(?:' || next_header.alternatives || '):|\\z)'",
            1) }} as section_text
    from notes
    cross join next_header
    inner join rules
        on rules.rule_type = 'section'
        and rules.known_at_triage
        and rules.output_field is not null
),

-- What follows a truncation marker happened after triage (e.g. "In the ED, initial vitals were ...").
cut_points as (
    select
        kept_sections.hadm_id,
        kept_sections.output_field,
        min(nullif(strpos(kept_sections.section_text, rules.pattern), 0)) as cut_at
    from kept_sections
    inner join rules
        on rules.rule_type = 'truncate_marker'
        and rules.output_field = kept_sections.output_field
    group by all
),

cut_sections as (
    select
        kept_sections.hadm_id,
        kept_sections.note_id,
        kept_sections.output_field,
        nullif(trim(regexp_replace(
            case when cut_points.cut_at is null then kept_sections.section_text
                 else left(kept_sections.section_text, cut_points.cut_at - 1) end,
            '\s+', ' ', 'g')), '') as section_text
    from kept_sections
    left join cut_points using (hadm_id, output_field)
)

select
    hadm_id,
    any_value(note_id) as note_id,
    max(case when output_field = 'hpi' then section_text end) as hpi,
    max(case when output_field = 'pmh' then section_text end) as pmh
from cut_sections
group by hadm_id
