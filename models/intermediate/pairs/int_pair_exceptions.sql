-- Where a pair departs from its default state in a group: every (group, stratum, pair) whose state is not
-- "present, base direction, delta 0" (int_pair_universe). That is a pair whose copy changed level (delta <> 0),
-- a pair whose direction differs from its base direction, or a pair absent from a group that has pairs in the
-- stratum (state 0). Most pairs keep their level in most groups, so this holds a few percent of the
-- pairs x strata x groups; int_comparison_joint_cells derives every comparison's joint cells from it.
-- state: 0 absent, else 1 + 9 * direction code + (delta + 4) (macros/metrics/paired_metrics.sql).

with stratum_groups as (
    select distinct dataset, stratum_id, group_id from {{ ref('int_pair_cells') }}
),

stratum_group_counts as (
    select dataset, stratum_id, count(*) as n_groups from stratum_groups group by dataset, stratum_id
),

-- pairs whose groups disagree on the direction, or that some group of the stratum lacks (rare; none when
-- every group of a data set holds the same pairs with the same sexes)
irregular as (
    select universe.dataset, universe.stratum_id, universe.pair_key, universe.unit_key, universe.unit_is_pair,
           universe.base_direction_code
    from {{ ref('int_pair_universe') }} as universe
    inner join stratum_group_counts using (dataset, stratum_id)
    where universe.base_direction_code <> universe.max_direction_code
       or universe.n_groups_present < stratum_group_counts.n_groups
),

-- changed pairs, and every row of the irregular pairs (to find the groups they are absent from)
candidate_rows as {{ cte_materialized() }} (
    select
        members.dataset,
        members.stratum_id,
        members.group_id,
        members.unit_key,
        members.unit_is_pair,
        members.pair_key,
        coalesce(irregular.base_direction_code, members.direction_code) as base_direction_code,
        {{ paired_state_code('members.direction', 'members.delta') }} as state
    from {{ ref('int_pair_members') }} as members
    left join irregular using (dataset, stratum_id, pair_key)
    where members.delta <> 0 or irregular.pair_key is not null
),

absent as (
    select irregular.dataset, irregular.stratum_id, stratum_groups.group_id, irregular.unit_key,
           irregular.unit_is_pair, irregular.pair_key, irregular.base_direction_code, 0 as state
    from irregular
    inner join stratum_groups using (dataset, stratum_id)
    where not exists (
        select 1 from candidate_rows
        where candidate_rows.dataset = irregular.dataset
          and candidate_rows.stratum_id = irregular.stratum_id
          and candidate_rows.pair_key = irregular.pair_key
          and candidate_rows.group_id = stratum_groups.group_id
    )
)

select dataset, stratum_id, group_id, unit_key, unit_is_pair, pair_key, base_direction_code, state
from candidate_rows
where state <> {{ paired_default_state('base_direction_code') }}

union all

select dataset, stratum_id, group_id, unit_key, unit_is_pair, pair_key, base_direction_code, state
from absent
