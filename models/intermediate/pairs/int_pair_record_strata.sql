-- The strata a pair gets from its record or its import, in long format (the strata every pair has, overall and
-- the documented level, come from the pair itself: macro pair_self_strata): the nurse x patient sex dyad when
-- the nurse's sex is known, and every stratum_<name> column of imported pairs. Content strata of the warehouse's
-- own pairs (presentation_group, age_band) come from the cohort record (int_cohort_records_stratified);
-- imported pairs carry their own stratum_ columns instead. A view, read once per build by int_pair_members.

{{ config(materialized='view') }}

with pairs as (
    select * from {{ ref('int_pairs_unioned') }}
)

-- The triage nurse's sex with the patient's documented sex (the study's Figure 6), for the warehouse's own
-- pairs of records that name the nurse's sex (Bordeaux), e.g. 'F_nurse_M_patient'.
select pairs.dataset, pairs.model, pairs.generator, pairs.setting, pairs.pair_id, 'nurse_patient_dyad' as stratum_name,
       cohort.nurse_sex || '_nurse_' || pairs.original_sex || '_patient' as stratum_value
from pairs
inner join {{ ref('triage_cohort') }} as cohort
    on cohort.dataset = pairs.dataset
    and cohort.record_id = pairs.pair_id
where pairs.pair_source = 'model_inputs'
    and cohort.nurse_sex is not null

union all

select strata.dataset, strata.model, 'imported', strata.setting, strata.pair_id, strata.stratum_name, strata.stratum_value
from {{ ref('stg_inference__imported_pair_strata') }} as strata
where strata.stratum_name not in ('overall', 'documented_level')

union all

select pairs.dataset, pairs.model, pairs.generator, pairs.setting, pairs.pair_id, content.stratum_name, content.stratum_value
from pairs
inner join (
    select dataset, record_id, 'presentation_group' as stratum_name, presentation_group as stratum_value
    from {{ ref('int_cohort_records_stratified') }}
    union all
    select dataset, record_id, 'age_band', age_band
    from {{ ref('int_cohort_records_stratified') }}
    where age_band is not null
) as content
    on content.dataset = pairs.dataset and content.record_id = pairs.pair_id
where pairs.pair_source = 'model_inputs'
