-- The strata of audit.pair_outcomes in long format: one row per pair and stratum (the keys and values of its
-- `strata` map), for BI tools and drivers that cannot read a MAP column. A view over the same long table the map
-- is aggregated from, so the two always agree; join it to pair_outcomes on the five key columns.

{{ config(materialized='view') }}

select
    dataset,
    model,
    generator,
    setting,
    pair_id,
    stratum_name,
    stratum_value
from {{ ref('int_pair_strata') }}
where stratum_name != 'overall'
