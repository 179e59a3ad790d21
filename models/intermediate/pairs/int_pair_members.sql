-- Each pair in each of its strata (pairs x strata rows: the longest relation of the audit), in integer keys: its
-- group (group_id), its stratum (stratum_id, a hash of name and value), the pair (pair_key, a hash of data set
-- and pair id), its resampling unit (unit_key: the patient, or the pair alone when unit_is_pair), its direction
-- code (1 m_to_f, 0 f_to_m) and its level change. The strata are those of int_pair_strata. Written once per build
-- and read by int_pair_cells, int_pair_universe, int_pair_exceptions and the patients' signatures, each in one
-- pass over integers.

{%- set columns = ['group_id', 'dataset', 'pair_key', 'unit_key', 'unit_is_pair', 'direction', 'delta'] %}

with pairs as (
    select group_id, dataset, model, generator, setting, pair_id, pair_key, unit_key, unit_is_pair, direction, delta,
           true_level
    from {{ ref('int_pairs_unioned') }}
),

strata as (
    {{ pair_self_strata('pairs', columns) | indent(4) }}

    union all

    select {% for column in columns %}pairs.{{ column }}, {% endfor %}record_strata.stratum_name, record_strata.stratum_value
    from {{ ref('int_pair_record_strata') }} as record_strata
    inner join pairs using (dataset, model, generator, setting, pair_id)
)

select
    group_id,
    dataset,
    stratum_name,
    stratum_value,
    {{ hash64("stratum_name || chr(31) || stratum_value") }} as stratum_id,
    pair_key,
    unit_key,
    unit_is_pair,
    direction,
    cast(case when direction = 'm_to_f' then 1 else 0 end as {{ biasmirror.type_tiny_int() }}) as direction_code,
    cast(delta as {{ biasmirror.type_tiny_int() }}) as delta
from strata
