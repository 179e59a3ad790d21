with source as (
    {{ raw_source('mimic', 'discharge') }}
)

select
    nullif(trim(note_id), '') as note_id,
    {{ biasmirror.try_cast_text("subject_id", "bigint") }} as subject_id,
    {{ biasmirror.try_cast_text("hadm_id", "bigint") }} as hadm_id,
    nullif(trim(note_type), '') as note_type,
    {{ biasmirror.try_cast_text("note_seq", "integer") }} as note_seq,
    {{ biasmirror.try_cast_text("charttime", "timestamp") }} as charted_at,
    -- Normalise line endings so section rules see one format.
    replace(text, chr(13), '') as note_text
from source
