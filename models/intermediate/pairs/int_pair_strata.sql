-- The strata each pair belongs to, in long format: 'overall' (every pair) and the documented level when known
-- (macro pair_self_strata), then the strata of int_pair_record_strata (nurse x patient sex dyad, imported
-- stratum_ columns, presentation group and age band). A view over the pairs with text keys, for readers that join
-- on pair_id; the bootstrap reads the same strata from int_pair_members.

{{ config(materialized='view') }}

with self_strata as (
    {{ pair_self_strata(ref('int_pairs_unioned'), ['dataset', 'model', 'generator', 'setting', 'pair_id']) | indent(4) }}
)

select dataset, model, generator, setting, pair_id, stratum_name, stratum_value
from self_strata

union all

select dataset, model, generator, setting, pair_id, stratum_name, stratum_value
from {{ ref('int_pair_record_strata') }}
