with source as (
    {{ raw_source('mimic', 'discharge') }}
)

select
    nullif(trim(note_id), '') as note_id,
    try_cast(subject_id as bigint) as subject_id,
    try_cast(hadm_id as bigint) as hadm_id,
    nullif(trim(note_type), '') as note_type,
    try_cast(note_seq as integer) as note_seq,
    try_cast(charttime as timestamp) as charted_at,
    -- Normalise line endings so section rules see one format.
    replace(text, chr(13), '') as note_text
from source
