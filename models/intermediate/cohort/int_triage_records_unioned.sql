-- Every data set's triage records in one shape, so that exclusions, the split, linearization and all audit
-- models are shared. Data-set differences (units, codes, links) are resolved upstream in each data set's models.

{{ config(materialized='view') }}

select * from {{ ref('int_mimic__ed_stays_linked') }}

union all

select * from {{ ref('int_bordeaux__visits_prepared') }}
