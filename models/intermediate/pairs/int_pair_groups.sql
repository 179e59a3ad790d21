-- The groups of pairs the paired metrics are computed for, one row per data set, model, counterfactual generator
-- and setting, with the group's integer key (group_id, a hash of the four).

select distinct group_id, dataset, model, generator, setting
from {{ ref('int_pairs_unioned') }}
