-- Every pair of each data set and stratum once (the union over groups), with its resampling unit, its base
-- direction (the lowest direction code any group gives it: 0 f_to_m, 1 m_to_f; the groups agree unless imports
-- disagree on the original's sex) and the number of groups it is present in. The comparison bootstrap treats a
-- pair as unchanged (base direction, delta 0) in every group unless int_pair_exceptions says otherwise.

select
    dataset,
    stratum_id,
    pair_key,
    min(unit_key) as unit_key,
    bool_and(unit_is_pair) as unit_is_pair,
    min(direction_code) as base_direction_code,
    max(direction_code) as max_direction_code,
    count(*) as n_groups_present
from {{ ref('int_pair_members') }}
group by dataset, stratum_id, pair_key
