-- The strata each pair belongs to, in long format: 'overall' (every pair), the documented level when known,
-- and every stratum_<name> column of imported pairs.

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

select strata.dataset, strata.model, 'imported', strata.setting, strata.pair_id, strata.stratum_name, strata.stratum_value
from {{ ref('stg_inference__imported_pair_strata') }} as strata
where strata.stratum_name not in ('overall', 'documented_level')
