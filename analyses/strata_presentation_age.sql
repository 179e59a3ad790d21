-- Pooled rate and DTS per direction by presentation group (chest pain, abdominal pain, dyspnoea, neurological,
-- sepsis-like, other: seeds/presentation_groups.csv) and by age band (var age_band_edges), with 95% bootstrap
-- intervals. small = fewer pairs than var min_stratum_pairs: read those estimates as unstable.

select
    dataset,
    model,
    generator,
    setting,
    stratum_name,
    stratum_value,
    max(n_pairs) as n_pairs,
    bool_or(is_small_stratum) as small,
    {%- for metric in ['pooled_rate', 'dts_m_to_f', 'dts_f_to_m', 'pdr'] %}
    max(case when metric = '{{ metric }}' then estimate end) as {{ metric }},
    max(case when metric = '{{ metric }}' then ci_low end) as {{ metric }}_ci_low,
    max(case when metric = '{{ metric }}' then ci_high end) as {{ metric }}_ci_high{{ "," if not loop.last }}
    {%- endfor %}
from {{ ref('paired_metrics') }}
where stratum_name in ('presentation_group', 'age_band')
group by dataset, model, generator, setting, stratum_name, stratum_value
order by dataset, model, generator, setting, stratum_name, stratum_value
