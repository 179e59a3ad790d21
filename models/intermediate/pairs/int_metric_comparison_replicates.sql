-- Every paired metric's difference between the two sides of each comparison (int_pair_comparisons), metric(b) -
-- metric(a), in every bootstrap replicate (replicate -1: the observed pairs), per stratum. Both sides are summed
-- from the same draws (one exact Poisson(n) draw per joint cell of int_comparison_joint_cells), so a pair or
-- patient has one multiplicity on both sides: the interval of the difference is a paired bootstrap interval.
-- A view: audit.metric_comparisons reads it once per build; the draws are streamed into the sums, never stored.

{{ config(materialized='view') }}

{%- set stats = paired_sufficient_statistics().keys() | list %}
{%- set metrics_a = paired_metric_expressions('_a') %}
{%- set metrics_b = paired_metric_expressions('_b') %}
{#- every sum but n_pairs_w, which is n_m_to_f + n_f_to_m: fewer sums per group and replicate #}
{%- set summed = [] %}
{%- for side in ['a', 'b'] %}{% for name in stats if name != 'n_pairs_w' %}{% do summed.append(name ~ '_' ~ side) %}{% endfor %}{% endfor %}

with draws as (
    {{ poisson_draws(ref('int_comparison_joint_cells'), bootstrap_config().n_boot, ['design_id'] + summed) | indent(4) }}
),

-- sums as doubles (exact for integers below 2^53): an 8-byte state per sum instead of DuckDB's 16-byte integer
-- sums, for the millions of (comparison, stratum, replicate) groups of a study with many models
sums as (
    select
        design_id, -1 as replicate,
        {%- for column in summed %}
        sum(cast(n_units * {{ column }} as {{ biasmirror.type_double() }})) as {{ column }}{{ "," if not loop.last }}
        {%- endfor %}
    from {{ ref('int_comparison_joint_cells') }}
    group by design_id

    union all

    select
        design_id, replicate,
        {%- for column in summed %}
        sum(cast(weight * {{ column }} as {{ biasmirror.type_double() }})) as {{ column }}{{ "," if not loop.last }}
        {%- endfor %}
    from draws
    group by design_id, replicate
),

sides as (
    select *, n_m_to_f_a + n_f_to_m_a as n_pairs_w_a, n_m_to_f_b + n_f_to_m_b as n_pairs_w_b
    from sums
),

designs as (
    select distinct design_id, comparison_id, stratum_id from {{ ref('int_comparison_joint_cells') }}
),

strata as (
    select distinct stratum_id, stratum_name, stratum_value from {{ ref('int_pair_cells') }}
)

select
    sides.design_id,
    comparisons.comparison,
    comparisons.dataset,
    strata.stratum_name,
    strata.stratum_value,
    comparisons.model_a,
    comparisons.generator_a,
    comparisons.setting_a,
    comparisons.model_b,
    comparisons.generator_b,
    comparisons.setting_b,
    sides.replicate,
    cast(sides.n_pairs_w_a as bigint) as n_pairs_a,
    cast(sides.n_pairs_w_b as bigint) as n_pairs_b,
    {%- for name, expression in metrics_a.items() %}
    {{ metrics_b[name] }} - {{ expression }} as {{ name }}{{ "," if not loop.last }}
    {%- endfor %}
from sides
inner join designs using (design_id)
inner join {{ ref('int_pair_comparisons') }} as comparisons using (comparison_id)
inner join strata using (stratum_id)
