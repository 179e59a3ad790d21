-- The study's Table 1 (and the data of Figure 2): each triage model's agreement with the documented level on the
-- test split, setting full, with 95% bootstrap intervals (test records resampled). Wide format, one row per
-- data set and model. Compile with `dbt compile` and run the SQL in target/compiled/biasmirror/analyses/.

select
    dataset,
    model,
    max(n_records) as test_records,
    {%- for metric in ['accuracy', 'kappa_linear', 'kappa_quadratic', 'macro_precision', 'macro_recall', 'macro_f1'] %}
    max(case when metric = '{{ metric }}' then estimate end) as {{ metric }},
    max(case when metric = '{{ metric }}' then ci_low end) as {{ metric }}_ci_low,
    max(case when metric = '{{ metric }}' then ci_high end) as {{ metric }}_ci_high{{ "," if not loop.last }}
    {%- endfor %}
from {{ ref('model_performance') }}
where setting = 'full'
group by dataset, model
order by dataset, kappa_linear
