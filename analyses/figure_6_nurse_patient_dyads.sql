-- The study's Figure 6: DTS per direction and the pooled rate for each triage-nurse sex x patient sex dyad
-- (data sets that record the nurse's sex, e.g. Bordeaux). The dyad's patient sex is the original's documented
-- sex, so male-patient dyads hold m_to_f pairs (read dts_m_to_f) and female-patient dyads f_to_m pairs (read
-- dts_f_to_m). small = fewer pairs than var min_stratum_pairs.

select
    dataset,
    model,
    generator,
    setting,
    stratum_value as dyad,
    max(n_pairs) as n_pairs,
    bool_or(is_small_stratum) as small,
    {%- for metric in ['dts_m_to_f', 'dts_f_to_m', 'pooled_rate'] %}
    max(case when metric = '{{ metric }}' then estimate end) as {{ metric }},
    max(case when metric = '{{ metric }}' then ci_low end) as {{ metric }}_ci_low,
    max(case when metric = '{{ metric }}' then ci_high end) as {{ metric }}_ci_high{{ "," if not loop.last }}
    {%- endfor %}
from {{ ref('paired_metrics') }}
where stratum_name = 'nurse_patient_dyad'
group by dataset, model, generator, setting, stratum_value
order by dataset, model, generator, setting, stratum_value
