-- The term-association metrics (PDR, DTS per direction and the pooled rate, from macros/metrics/paired_metrics.sql)
-- in every bootstrap replicate (replicate -1: observed), per data set, model, generator, setting and term.

{%- set all_metrics = paired_metric_expressions() %}
{%- set metrics = {} %}
{%- for name in term_metric_names() %}{% do metrics.update({name: all_metrics[name]}) %}{% endfor %}

with cells as (
    select distinct cell_id, dataset, model, generator, setting, term, direction, delta
    from {{ ref('int_term_pair_cells') }}
),

indicators as (
    select *, {{ paired_indicator_columns() }}
    from cells
),

sums as (
    select
        indicators.dataset, indicators.model, indicators.generator, indicators.setting, indicators.term,
        weights.replicate,
        {{ paired_metric_sums('weights.weight') }}
    from {{ ref('int_term_bootstrap_weights') }} as weights
    inner join indicators using (cell_id)
    group by indicators.dataset, indicators.model, indicators.generator, indicators.setting, indicators.term,
             weights.replicate
)

select
    dataset, model, generator, setting, term, replicate,
    {%- for name in paired_sufficient_statistics().keys() %}
    {{ name }},
    {%- endfor %}
    {%- for name, expression in metrics.items() %}
    {{ expression }} as {{ name }}{{ "," if not loop.last }}
    {%- endfor %}
from sums
