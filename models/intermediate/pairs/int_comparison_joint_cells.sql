-- The joint cells of every comparison (int_pair_comparisons) in every stratum the two groups share: the units of
-- the stratum grouped by what they contribute to both sides, so that the paired bootstrap of the comparison is
-- one exact Poisson(n) draw per joint cell and replicate (int_metric_comparison_replicates).
--
-- A pair has a state in each group (absent, or direction and level change); a pair resampled on its own falls in
-- the joint cell (state in a, state in b), at most 2 x 9 x 9 of them plus absences. A patient resampled with all
-- their pairs falls in the joint cell of the multiset of their pairs' joint states. Since most pairs keep their
-- level in most groups, the cells are counted from int_pair_exceptions (the departures from "present, unchanged")
-- and int_pair_universe (every pair of the stratum), never by pairing every pair of a with its pair in b: the cost
-- grows with the changed pairs times the comparisons each group is in, not with all pairs times the comparisons.
-- Each comparison is an exact bootstrap of the units of its two groups; comparisons and strata draw independently.
-- Columns: the comparison and stratum, the joint cell's label (unique within them), its number of units, its key
-- (a hash of the seed, comparison, stratum and label) and the sufficient statistics of one of its units for side
-- a (suffix _a) and side b (_b).

{%- set stats = paired_sufficient_statistics().keys() | list %}
{%- set default_f = paired_default_state('0') %}
{%- set default_m = paired_default_state('1') %}
{%- set stats_default_f = paired_state_statistic_expressions(default_f) %}
{%- set stats_default_m = paired_state_statistic_expressions(default_m) %}

with group_strata as (
    select distinct group_id, stratum_id, stratum_name, stratum_value from {{ ref('int_pair_cells') }}
),

comparison_strata as (
    select
        comparisons.comparison_id,
        comparisons.dataset,
        comparisons.group_a,
        comparisons.group_b,
        strata_a.stratum_id,
        concat_ws(chr(31), comparisons.dataset, comparisons.model_a, comparisons.generator_a, comparisons.setting_a,
                  comparisons.model_b, comparisons.generator_b, comparisons.setting_b, strata_a.stratum_name,
                  strata_a.stratum_value) as design_label
    from {{ ref('int_pair_comparisons') }} as comparisons
    inner join group_strata as strata_a on strata_a.group_id = comparisons.group_a
    inner join group_strata as strata_b
        on strata_b.group_id = comparisons.group_b and strata_b.stratum_id = strata_a.stratum_id
),

exceptions as (
    select * from {{ ref('int_pair_exceptions') }}
),

-- ---- pairs resampled on their own: counts, from the exceptions of each group ----
pair_exceptions as (
    select dataset, stratum_id, group_id, pair_key, base_direction_code, state from exceptions where unit_is_pair
),

pair_exception_counts as (
    select group_id, stratum_id, base_direction_code, state, count(*) as n
    from pair_exceptions
    group by group_id, stratum_id, base_direction_code, state
),

pair_exception_totals as (
    select group_id, stratum_id, base_direction_code, sum(n) as n
    from pair_exception_counts
    group by group_id, stratum_id, base_direction_code
),

pair_universe_counts as (
    select dataset, stratum_id, base_direction_code, count(*) as n
    from {{ ref('int_pair_universe') }}
    where unit_is_pair
    group by dataset, stratum_id, base_direction_code
),

-- pairs that depart from their default in both groups of a comparison
pair_both as (
    select
        comparison_strata.comparison_id, comparison_strata.stratum_id, side_a.base_direction_code,
        side_a.state as state_a, side_b.state as state_b, count(*) as n
    from pair_exceptions as side_a
    inner join pair_exceptions as side_b
        on side_b.dataset = side_a.dataset
        and side_b.stratum_id = side_a.stratum_id
        and side_b.pair_key = side_a.pair_key
        and side_b.group_id <> side_a.group_id
    inner join comparison_strata
        on comparison_strata.group_a = side_a.group_id
        and comparison_strata.group_b = side_b.group_id
        and comparison_strata.stratum_id = side_a.stratum_id
    group by comparison_strata.comparison_id, comparison_strata.stratum_id, side_a.base_direction_code,
             side_a.state, side_b.state
),

pair_both_a as (
    select comparison_id, stratum_id, base_direction_code, state_a as state, sum(n) as n
    from pair_both group by comparison_id, stratum_id, base_direction_code, state_a
),

pair_both_b as (
    select comparison_id, stratum_id, base_direction_code, state_b as state, sum(n) as n
    from pair_both group by comparison_id, stratum_id, base_direction_code, state_b
),

pair_both_totals as (
    select comparison_id, stratum_id, base_direction_code, sum(n) as n
    from pair_both group by comparison_id, stratum_id, base_direction_code
),

pair_joint_counts as (
    select comparison_id, stratum_id, state_a, state_b, n from pair_both

    union all

    -- departs in a only: unchanged in b
    select comparison_strata.comparison_id, comparison_strata.stratum_id, counts.state,
           {{ paired_default_state('counts.base_direction_code') }}, counts.n - coalesce(both_a.n, 0)
    from comparison_strata
    inner join pair_exception_counts as counts
        on counts.group_id = comparison_strata.group_a and counts.stratum_id = comparison_strata.stratum_id
    left join pair_both_a as both_a
        on both_a.comparison_id = comparison_strata.comparison_id and both_a.stratum_id = comparison_strata.stratum_id
        and both_a.base_direction_code = counts.base_direction_code and both_a.state = counts.state

    union all

    -- departs in b only
    select comparison_strata.comparison_id, comparison_strata.stratum_id,
           {{ paired_default_state('counts.base_direction_code') }}, counts.state, counts.n - coalesce(both_b.n, 0)
    from comparison_strata
    inner join pair_exception_counts as counts
        on counts.group_id = comparison_strata.group_b and counts.stratum_id = comparison_strata.stratum_id
    left join pair_both_b as both_b
        on both_b.comparison_id = comparison_strata.comparison_id and both_b.stratum_id = comparison_strata.stratum_id
        and both_b.base_direction_code = counts.base_direction_code and both_b.state = counts.state

    union all

    -- unchanged in both: every pair of the stratum less those departing in a or in b
    select comparison_strata.comparison_id, comparison_strata.stratum_id,
           {{ paired_default_state('universe.base_direction_code') }}, {{ paired_default_state('universe.base_direction_code') }},
           universe.n - coalesce(totals_a.n, 0) - coalesce(totals_b.n, 0) + coalesce(in_both.n, 0)
    from comparison_strata
    inner join pair_universe_counts as universe
        on universe.dataset = comparison_strata.dataset and universe.stratum_id = comparison_strata.stratum_id
    left join pair_exception_totals as totals_a
        on totals_a.group_id = comparison_strata.group_a and totals_a.stratum_id = comparison_strata.stratum_id
        and totals_a.base_direction_code = universe.base_direction_code
    left join pair_exception_totals as totals_b
        on totals_b.group_id = comparison_strata.group_b and totals_b.stratum_id = comparison_strata.stratum_id
        and totals_b.base_direction_code = universe.base_direction_code
    left join pair_both_totals as in_both
        on in_both.comparison_id = comparison_strata.comparison_id and in_both.stratum_id = comparison_strata.stratum_id
        and in_both.base_direction_code = universe.base_direction_code
),

pair_cells as (
    {%- set stats_a = paired_state_statistic_expressions('state_a') %}
    {%- set stats_b = paired_state_statistic_expressions('state_b') %}
    select
        comparison_id,
        stratum_id,
        'pair:' || cast(state_a as {{ biasmirror.type_text() }}) || ':' || cast(state_b as {{ biasmirror.type_text() }}) as label,
        n_units,
        {%- for name in stats %}
        {{ stats_a[name] }} as {{ name }}_a,
        {%- endfor %}
        {%- for name in stats %}
        {{ stats_b[name] }} as {{ name }}_b{{ "," if not loop.last }}
        {%- endfor %}
    from (
        select comparison_id, stratum_id, state_a, state_b, sum(n) as n_units
        from pair_joint_counts
        group by comparison_id, stratum_id, state_a, state_b
    ) as counts
    where n_units > 0
),

-- ---- patients resampled with all their pairs: a multiset of joint states per patient ----
patient_profiles as (
    select
        dataset, stratum_id, unit_key,
        count(case when base_direction_code = 0 then 1 end) as n_f,
        count(case when base_direction_code = 1 then 1 end) as n_m
    from {{ ref('int_pair_universe') }}
    where not unit_is_pair
    group by dataset, stratum_id, unit_key
),

patient_profile_counts as (
    select dataset, stratum_id, n_f, n_m, count(*) as n_units
    from patient_profiles
    group by dataset, stratum_id, n_f, n_m
),

patient_sides as (
    select comparison_strata.comparison_id, comparison_strata.stratum_id, exceptions.unit_key, exceptions.pair_key,
           exceptions.base_direction_code, exceptions.state as state_a, cast(null as integer) as state_b
    from exceptions
    inner join comparison_strata
        on comparison_strata.group_a = exceptions.group_id and comparison_strata.stratum_id = exceptions.stratum_id
    where not exceptions.unit_is_pair

    union all

    select comparison_strata.comparison_id, comparison_strata.stratum_id, exceptions.unit_key, exceptions.pair_key,
           exceptions.base_direction_code, null, exceptions.state
    from exceptions
    inner join comparison_strata
        on comparison_strata.group_b = exceptions.group_id and comparison_strata.stratum_id = exceptions.stratum_id
    where not exceptions.unit_is_pair
),

patient_pair_states as (
    select
        comparison_id, stratum_id, unit_key, pair_key, base_direction_code,
        coalesce(max(state_a), {{ paired_default_state('base_direction_code') }}) as state_a,
        coalesce(max(state_b), {{ paired_default_state('base_direction_code') }}) as state_b
    from patient_sides
    group by comparison_id, stratum_id, unit_key, pair_key, base_direction_code
),

-- patients with at least one departure in a or b: their departing pairs' joint states, and their other pairs
patient_active as (
    {%- set stats_a = paired_state_statistic_expressions('state_a') %}
    {%- set stats_b = paired_state_statistic_expressions('state_b') %}
    select
        states.comparison_id,
        states.stratum_id,
        states.unit_key,
        {{ sorted_list_agg('states.state_a * 19 + states.state_b') }} as departures,
        profiles.n_f - count(case when states.base_direction_code = 0 then 1 end) as unchanged_f,
        profiles.n_m - count(case when states.base_direction_code = 1 then 1 end) as unchanged_m,
        profiles.n_f,
        profiles.n_m,
        {%- for name in stats %}
        sum({{ stats_a[name] }}) as departures_{{ name }}_a,
        sum({{ stats_b[name] }}) as departures_{{ name }}_b{{ "," if not loop.last }}
        {%- endfor %}
    from patient_pair_states as states
    inner join comparison_strata using (comparison_id, stratum_id)
    inner join patient_profiles as profiles
        on profiles.dataset = comparison_strata.dataset
        and profiles.stratum_id = states.stratum_id
        and profiles.unit_key = states.unit_key
    group by states.comparison_id, states.stratum_id, states.unit_key, profiles.n_f, profiles.n_m
),

patient_active_cells as (
    select
        comparison_id, stratum_id, departures, unchanged_f, unchanged_m, n_f, n_m, count(*) as n_units,
        {%- for name in stats %}
        min(departures_{{ name }}_a) as departures_{{ name }}_a,
        min(departures_{{ name }}_b) as departures_{{ name }}_b{{ "," if not loop.last }}
        {%- endfor %}
    from patient_active
    group by comparison_id, stratum_id, departures, unchanged_f, unchanged_m, n_f, n_m
),

patient_cells as (
    select
        comparison_id,
        stratum_id,
        'patient:' || cast(n_f as {{ biasmirror.type_text() }}) || ':' || cast(n_m as {{ biasmirror.type_text() }}) || ':' || cast(departures as {{ biasmirror.type_text() }}) || ':'
            || cast(unchanged_f as {{ biasmirror.type_text() }}) || ':' || cast(unchanged_m as {{ biasmirror.type_text() }}) as label,
        n_units,
        {%- for side in ['a', 'b'] %}
        {%- for name in stats %}
        departures_{{ name }}_{{ side }} + unchanged_f * {{ stats_default_f[name] }} + unchanged_m * {{ stats_default_m[name] }} as {{ name }}_{{ side }}{{ "," if not (loop.last and side == 'b') }}
        {%- endfor %}
        {%- endfor %}
    from patient_active_cells

    union all

    -- patients with no departure in a or b: all their pairs unchanged in both
    select
        comparison_strata.comparison_id,
        comparison_strata.stratum_id,
        'patient:' || cast(counts.n_f as {{ biasmirror.type_text() }}) || ':' || cast(counts.n_m as {{ biasmirror.type_text() }}) || ':unchanged',
        counts.n_units - coalesce(active.n_units, 0),
        {%- for side in ['a', 'b'] %}
        {%- for name in stats %}
        counts.n_f * {{ stats_default_f[name] }} + counts.n_m * {{ stats_default_m[name] }}{{ "," if not (loop.last and side == 'b') }}
        {%- endfor %}
        {%- endfor %}
    from comparison_strata
    inner join patient_profile_counts as counts
        on counts.dataset = comparison_strata.dataset and counts.stratum_id = comparison_strata.stratum_id
    left join (
        select comparison_id, stratum_id, n_f, n_m, sum(n_units) as n_units
        from patient_active_cells
        group by comparison_id, stratum_id, n_f, n_m
    ) as active
        on active.comparison_id = comparison_strata.comparison_id and active.stratum_id = comparison_strata.stratum_id
        and active.n_f = counts.n_f and active.n_m = counts.n_m
    where counts.n_units - coalesce(active.n_units, 0) > 0
),

joint_cells as (
    select * from pair_cells
    union all
    select * from patient_cells
)

select
    -- one integer per comparison and stratum, the key the replicate sums are grouped by
    cast(dense_rank() over (order by joint_cells.comparison_id, joint_cells.stratum_id) as integer) as design_id,
    joint_cells.comparison_id,
    joint_cells.stratum_id,
    joint_cells.label,
    cast(joint_cells.n_units as integer) as n_units,
    {{ resample_key("comparison_strata.design_label || chr(31) || joint_cells.label") }} as joint_key,
    -- integers: the replicate sums multiply them by integer weights, and DuckDB sums integers far faster than
    -- the 128-bit sums of bigints
    {%- for side in ['a', 'b'] %}
    {%- for name in stats %}
    cast(joint_cells.{{ name }}_{{ side }} as integer) as {{ name }}_{{ side }}{{ "," if not (loop.last and side == 'b') }}
    {%- endfor %}
    {%- endfor %}
from joint_cells
inner join comparison_strata using (comparison_id, stratum_id)
