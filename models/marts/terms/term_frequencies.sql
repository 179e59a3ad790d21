-- How often each term occurs in the original notes of female and of male patients (test records, the records the
-- pairs are made from): the frequencies behind the study's word clouds, beside the per-term paired metrics of
-- audit.term_associations. A term is kept when at least var min_term_pairs test records of its data set contain
-- it (so every term of audit.term_associations is here). Counterfactual copies are not counted: a copy keeps the
-- content of its original and the terms exclude the sex/gender words the swap changes, so the female and the male
-- presentations of the pairs contain the same terms by construction.

with records as (
    select dataset, record_id, sex
    from {{ ref('triage_cohort') }}
    where split = 'test' and sex in ('F', 'M')
),

totals as (
    select
        dataset,
        count(case when sex = 'F' then 1 end) as n_records_female,
        count(case when sex = 'M' then 1 end) as n_records_male
    from records
    group by dataset
),

counts as (
    select
        terms.dataset,
        terms.term,
        count(case when records.sex = 'F' then 1 end) as n_notes_female,
        count(case when records.sex = 'M' then 1 end) as n_notes_male
    from {{ ref('int_record_terms') }} as terms
    inner join records
        on records.dataset = terms.dataset and records.record_id = terms.record_id
    group by terms.dataset, terms.term
    having count(*) >= {{ var('min_term_pairs') }}
),

shares as (
    select
        counts.dataset,
        counts.term,
        counts.n_notes_female,
        counts.n_notes_male,
        counts.n_notes_female + counts.n_notes_male as n_notes,
        totals.n_records_female,
        totals.n_records_male,
        counts.n_notes_female / nullif(cast(totals.n_records_female as {{ type_double() }}), 0) as share_female,
        counts.n_notes_male / nullif(cast(totals.n_records_male as {{ type_double() }}), 0) as share_male
    from counts
    inner join totals using (dataset)
)

select
    dataset,
    term,
    n_notes_female,
    n_notes_male,
    n_notes,
    n_records_female,
    n_records_male,
    share_female,
    share_male,
    share_female - share_male as share_difference,
    row_number() over (partition by dataset order by n_notes_female desc, term asc) as rank_female,
    row_number() over (partition by dataset order by n_notes_male desc, term asc) as rank_male
from shares
