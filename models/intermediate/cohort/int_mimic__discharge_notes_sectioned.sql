-- History of present illness and past medical history of each admission's discharge summary, cut down to what
-- was known at triage time (rules in the note_section_rules seed).
--
-- A note is split into lines; a line "<known header>:" (a section rule's pattern) starts a section that runs
-- to the next known header. Header-like lines that are not in the rules stay part of the section's text.

with notes as (
    select * from (
        select
            *,
            -- one summary per admission: the last one written
            row_number() over (partition by hadm_id order by note_seq desc nulls last, note_id desc) as summary_rank
        from {{ ref('stg_mimic__discharge_notes') }}
        where note_type is null or note_type = 'DS'
    ) as ranked
    where summary_rank = 1
),

rules as (
    select * from {{ ref('note_section_rules') }}
),

lines as (
    {{ split_lines('notes', ['hadm_id', 'note_id'], 'note_text') | indent(4) }}
),

marked_lines as (
    select
        lines.hadm_id,
        lines.note_id,
        lines.line_number,
        lines.line,
        section_rules.output_field,
        section_rules.known_at_triage,
        section_rules.pattern is not null as is_header,
        -- text after "Header:" on the header line itself
        case when section_rules.pattern is not null
             then trim(substr(lines.line, position(':' in lines.line) + 1)) end as header_remainder
    from lines
    left join rules as section_rules
        on section_rules.rule_type = 'section'
        and trim({{ regex_extract('lines.line', "'^[ \\t]*([^:]+):'", 1) }}) = section_rules.pattern
),

numbered as (
    select
        *,
        count(case when is_header then 1 end) over (partition by hadm_id order by line_number) as section_number
    from marked_lines
),

sections as (
    select
        hadm_id,
        {{ arbitrary('note_id') }} as note_id,
        max(case when is_header then output_field end) as output_field,
        bool_or(is_header and known_at_triage) as known_at_triage,
        {{ string_agg_ordered('case when is_header then header_remainder else line end', "' '", 'line_number') }} as section_text
    from numbered
    where section_number > 0
    group by hadm_id, section_number
),

kept_sections as (
    select hadm_id, note_id, output_field, section_text
    from sections
    where known_at_triage and output_field is not null
),

-- What follows a truncation marker happened after triage (e.g. "In the ED, initial vitals were ...").
cut_points as (
    select
        kept_sections.hadm_id,
        kept_sections.output_field,
        min(nullif(position(rules.pattern in kept_sections.section_text), 0)) as cut_at
    from kept_sections
    inner join rules
        on rules.rule_type = 'truncate_marker'
        and rules.output_field = kept_sections.output_field
    group by kept_sections.hadm_id, kept_sections.output_field
),

cut_sections as (
    select
        kept_sections.hadm_id,
        kept_sections.note_id,
        kept_sections.output_field,
        nullif(trim({{ regex_replace_all(
            'case when cut_points.cut_at is null then kept_sections.section_text
                  else left(kept_sections.section_text, cut_points.cut_at - 1) end',
            "'\\s+'", "' '") }}), '') as section_text
    from kept_sections
    left join cut_points using (hadm_id, output_field)
)

select
    hadm_id,
    {{ arbitrary('note_id') }} as note_id,
    max(case when output_field = 'hpi' then section_text end) as hpi,
    max(case when output_field = 'pmh' then section_text end) as pmh
from cut_sections
group by hadm_id
