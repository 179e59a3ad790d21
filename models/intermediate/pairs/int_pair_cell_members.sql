-- Each pair in each of its strata, with its cell (int_pair_cells): the resampling unit (unit_key), the
-- stratum and the cell. A view, like int_pair_strata: the bootstrap reads it once per build.

{{ config(materialized='view') }}

select pairs.unit_key, cells.stratum_id, cells.cell_id
from {{ ref('int_pairs_unioned') }} as pairs
inner join {{ ref('int_pair_strata') }} as strata using (dataset, model, generator, setting, pair_id)
inner join {{ ref('int_pair_cells') }} as cells
    using (dataset, model, generator, setting, stratum_name, stratum_value, direction, delta)
