-- Bordeaux ED visits in the shared cohort shape (one row per record; see int_triage_records_unioned), with the
-- exclusions that belong to this data set: documented level 1 (resuscitation, often routed before triage and
-- not always documented) and chief-complaint classes of gender-specific conditions (seed
-- excluded_complaint_classes, matched on the 3-character ICD-10 category of the class's code). The French
-- keyword patterns are applied with every data set's in int_triage_records_excluded.

with visits as (
    select * from {{ ref('stg_bordeaux__visits') }}
),

excluded_classes as (
    select * from {{ ref('excluded_complaint_classes') }}
),

classified as (
    select
        visits.*,
        exists (
            select 1
            from excluded_classes
            where upper(left(visits.complaint_code, 3)) between excluded_classes.code_from and excluded_classes.code_to
        ) as is_excluded_class
    from visits
)

select
    'bordeaux' as dataset,
    'fr' as language,
    visit_id as record_id,
    patient_id,
    arrived_at,
    patient_sex as sex,
    patient_age as age,
    arrival_mode,
    {{ round_half_away('temperature_c', 1) }} as temperature_c,
    heart_rate,
    resp_rate,
    o2_saturation,
    systolic_bp,
    diastolic_bp,
    case when pain_score_raw between 0 and 10 then pain_score_raw end as pain_score,
    pain_text,
    complaint_label as chief_complaint,
    complaint_code as chief_complaint_class,
    triage_note as hpi,
    history as pmh,
    nurse_id,
    nurse_sex,
    triage_level as documented_level,
    case
        when patient_sex is null then 'sex_missing'
        when triage_level is null or triage_level not between 1 and 5 then 'level_missing'
        when triage_level = 1 then 'level_1'
        when is_excluded_class then 'excluded_complaint_class'
    end as dataset_exclusion_reason
from classified
