-- The distinct terms of each test record's original notes (chief complaint, history of present illness, past
-- medical history): lower-case words of at least var min_term_length letters, without the stopwords of the
-- record's language (seed term_stopwords: function words and the sex/gender markers the copy swaps).

with records as (
    select dataset, record_id, language,
           concat_ws(' ', chief_complaint, hpi, pmh) as note_text
    from {{ ref('triage_cohort') }}
    where split = 'test'
),

words as (
    {{ split_words('records', ['dataset', 'record_id', 'language'], 'note_text') | indent(4) }}
)

select distinct words.dataset, words.record_id, words.word as term
from words
left join {{ ref('term_stopwords') }} as stopwords
    on stopwords.language = words.language and stopwords.term = words.word
where stopwords.term is null
  and length(words.word) >= {{ var('min_term_length') }}
