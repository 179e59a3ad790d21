-- One row per data set, model, counterfactual generator, setting and pair. A view over int_pairs_unioned and the
-- strata: the per-pair listing duplicates the intermediate table, and writing its millions of rows (with a map
-- of strata each) on every build would cost more than every metric mart; a query filtered on a data set or model
-- reads only that part.

{{ config(materialized='view') }}

with pairs as (
    select * from {{ ref('int_pairs_unioned') }}
),

strata as (
    select
        dataset, model, generator, setting, pair_id,
        {{ string_map_agg('stratum_name', 'stratum_value') }} as strata
    from {{ ref('int_pair_strata') }}
    where stratum_name != 'overall'
    group by dataset, model, generator, setting, pair_id
)

select
    pairs.dataset,
    pairs.model,
    pairs.generator,
    pairs.setting,
    pairs.pair_id,
    pairs.pair_source,
    pairs.original_sex,
    pairs.direction,
    pairs.original_level,
    pairs.counterfactual_level,
    pairs.delta,
    pairs.female_level,
    pairs.male_level,
    pairs.true_level,
    coalesce(strata.strata, {{ empty_string_map() }}) as strata
from pairs
left join strata using (dataset, model, generator, setting, pair_id)
