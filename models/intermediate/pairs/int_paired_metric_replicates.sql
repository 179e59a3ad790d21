-- Every paired metric in every bootstrap replicate (replicate -1: the observed pairs), per data set, model,
-- generator, setting and stratum, each group and stratum resampled on its own. audit.paired_metrics summarises
-- it; it is kept so that other intervals (or the bootstrap's standard errors) can be computed from the same
-- replicates. Differences between groups need both groups resampled together: their replicates are in
-- int_metric_comparison_replicates, not here.

{%- set metrics = paired_metric_expressions() %}

with cells as (
    select cell_id, group_id, stratum_id, is_m_to_f, is_up, is_down, female_minus_male
    from {{ ref('int_pair_cells') }}
),

strata as (
    select distinct group_id, stratum_id, dataset, model, generator, setting, stratum_name, stratum_value
    from {{ ref('int_pair_cells') }}
),

sums as (
    select
        cells.group_id,
        cells.stratum_id,
        weights.replicate,
        {{ paired_metric_sums('weights.weight') | indent(8) }}
    from {{ ref('int_pair_bootstrap_weights') }} as weights
    inner join cells using (cell_id)
    group by cells.group_id, cells.stratum_id, weights.replicate
)

select
    strata.dataset, strata.model, strata.generator, strata.setting, strata.stratum_name, strata.stratum_value,
    sums.replicate,
    {%- for name in paired_sufficient_statistics().keys() %}
    sums.{{ name }},
    {%- endfor %}
    {%- for name, expression in metrics.items() %}
    {{ expression }} as {{ name }}{{ "," if not loop.last }}
    {%- endfor %}
from sums
inner join strata using (group_id, stratum_id)
