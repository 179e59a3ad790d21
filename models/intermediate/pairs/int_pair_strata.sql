-- The strata each pair belongs to, in long format: 'overall' (every pair), the documented level when known,
-- the nurse x patient sex dyad when the nurse's sex is known, and every stratum_<name> column of imported pairs.
-- Content strata of the warehouse's own pairs (presentation_group, age_band) come from the cohort record
-- (int_cohort_records_stratified); imported pairs carry their own stratum_ columns instead.
-- A view: it is the longest relation of the audit (pairs x strata), cheap to compute and read once or twice per
-- build, so writing it to the warehouse would cost more than it saves.

{{ config(materialized='view') }}

with pairs as (
    select * from {{ ref('int_pairs_unioned') }}
)

select dataset, model, generator, setting, pair_id, 'overall' as stratum_name, 'all' as stratum_value
from pairs

union all

select dataset, model, generator, setting, pair_id, 'documented_level', cast(true_level as varchar)
from pairs
where true_level is not null

union all

-- The triage nurse's sex with the patient's documented sex (the study's Figure 6), for the warehouse's own
-- pairs of records that name the nurse's sex (Bordeaux), e.g. 'F_nurse_M_patient'.
select pairs.dataset, pairs.model, pairs.generator, pairs.setting, pairs.pair_id, 'nurse_patient_dyad',
       cohort.nurse_sex || '_nurse_' || pairs.original_sex || '_patient'
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
