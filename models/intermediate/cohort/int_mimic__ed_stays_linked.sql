-- Each MIMIC-IV ED stay linked to its triage record, patient, admission and discharge summary, in the shared
-- cohort shape (one row per record; see int_triage_records_unioned). Stays that do not link, and levels the
-- study leaves out for MIMIC (ESI 5, ~0.2% of linked stays), get a dataset_exclusion_reason.

with stays as (
    select * from {{ ref('stg_mimic__ed_stays') }}
),

triage as (
    select * from {{ ref('stg_mimic__triage') }}
),

patients as (
    select * from {{ ref('stg_mimic__patients') }}
),

admissions as (
    select * from {{ ref('stg_mimic__admissions') }}
),

notes as (
    select * from {{ ref('int_mimic__discharge_notes_sectioned') }}
),

linked as (
    select
        stays.stay_id,
        stays.subject_id,
        stays.hadm_id,
        stays.arrived_at,
        coalesce(stays.sex, patients.sex) as sex,
        patients.anchor_age + ({{ year_of('stays.arrived_at') }} - patients.anchor_year) as age,
        stays.arrival_transport,
        triage.temperature_f,
        triage.heart_rate,
        triage.resp_rate,
        triage.o2_saturation,
        triage.systolic_bp,
        triage.diastolic_bp,
        triage.pain_text,
        triage.pain_score_raw,
        triage.acuity,
        triage.chief_complaint,
        notes.hpi,
        notes.pmh,
        triage.stay_id is not null as has_triage,
        patients.subject_id is not null as has_patient,
        admissions.hadm_id is not null as has_admission,
        notes.hpi is not null as has_note
    from stays
    left join triage on triage.stay_id = stays.stay_id
    left join patients on patients.subject_id = stays.subject_id
    left join admissions on admissions.hadm_id = stays.hadm_id
    left join notes on notes.hadm_id = stays.hadm_id
)

select
    'mimic' as dataset,
    'en' as language,
    cast(stay_id as {{ biasmirror.type_text() }}) as record_id,
    cast(subject_id as {{ biasmirror.type_text() }}) as patient_id,
    arrived_at,
    sex,
    age,
    arrival_transport as arrival_mode,
    -- MIMIC records deg F, but some values are plainly typed in deg C (e.g. 37.1): keep those as they are.
    {{ round_half_away('case when temperature_f between 25 and 45 then temperature_f
               else (temperature_f - 32) * 5 / 9 end', 1) }} as temperature_c,
    heart_rate,
    resp_rate,
    o2_saturation,
    systolic_bp,
    diastolic_bp,
    case when pain_score_raw between 0 and 10 then pain_score_raw end as pain_score,
    pain_text,
    chief_complaint,
    cast(null as {{ biasmirror.type_text() }}) as chief_complaint_class,
    hpi,
    pmh,
    cast(null as {{ biasmirror.type_text() }}) as nurse_id,
    cast(null as {{ biasmirror.type_text() }}) as nurse_sex,
    acuity as documented_level,
    case
        when not has_triage then 'no_link_triage'
        when not has_patient then 'no_link_patient'
        when not has_admission then 'no_link_admission'
        when not has_note then 'no_link_discharge_note'
        when sex is null then 'sex_missing'
        when acuity is null or acuity not between 1 and 5 then 'level_missing'
        when acuity = 5 then 'level_5'
    end as dataset_exclusion_reason
from linked
