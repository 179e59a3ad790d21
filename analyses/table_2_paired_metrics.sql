-- The study's Table 2: every paired metric with its 95% bootstrap interval, per data set, model, counterfactual
-- generator and setting (all pairs). Proportions are fractions (0.0109 = 1.09%); nmd is in levels.
-- Sign: pooled_rate > 0, nmd > 0, dts_m_to_f > 0 and dts_f_to_m < 0 all mean that the female presentation of the
-- same record more often gets the less severe (higher) level.

select
    dataset,
    model,
    generator,
    metric,
    {%- for setting in counterfactual_settings().keys() %}
    max(case when setting = '{{ setting }}' then estimate end) as {{ setting }},
    max(case when setting = '{{ setting }}' then ci_low end) as {{ setting }}_ci_low,
    max(case when setting = '{{ setting }}' then ci_high end) as {{ setting }}_ci_high,
    max(case when setting = '{{ setting }}' then n_pairs end) as {{ setting }}_n_pairs{{ "," if not loop.last }}
    {%- endfor %}
from {{ ref('paired_metrics') }}
where stratum_name = 'overall'
group by dataset, model, generator, metric
order by dataset, model, generator, min(metric_order)
