-- Differences of every paired metric between settings, models and counterfactual generators, with paired
-- bootstrap CIs. Within a stratum, the same pair gets the same resampling weights in every model, setting and
-- generator (macros/bootstrap/poisson_bootstrap.sql), so joining the replicates of int_paired_metric_replicates on the
-- replicate number bootstraps the difference as a paired statistic. difference = metric(b) - metric(a).
--   setting:   same data set, model, generator and stratum; a is the earlier setting (full, text_only, tabular_only)
--   model:     same data set, generator, setting and stratum (e.g. pretrained vs from scratch, original vs
--              neutralized); a is the model whose name sorts first
--   generator: same data set, model, setting and stratum (e.g. rule-based vs LLM rewriter); a sorts first

{%- set metric_names = paired_metric_expressions().keys() | list %}
{%- set settings = counterfactual_settings().keys() | list %}
{%- set kinds = [
    ('setting', ['model', 'generator'], 'setting'),
    ('model', ['generator', 'setting'], 'model'),
    ('generator', ['model', 'setting'], 'generator'),
] %}
{%- set groups = ['comparison', 'dataset', 'stratum_name', 'stratum_value', 'model_a', 'generator_a', 'setting_a',
                  'model_b', 'generator_b', 'setting_b'] %}

with setting_order as (
    select * from (values
        {%- for setting in settings %}
        ('{{ setting }}', {{ loop.index }}){{ "," if not loop.last }}
        {%- endfor %}
    ) as setting_order (setting, setting_rank)
),

replicates as (
    select replicates.*, coalesce(setting_order.setting_rank, {{ settings | length + 1 }}) as setting_rank
    from {{ ref('int_paired_metric_replicates') }} as replicates
    left join setting_order using (setting)
),

differences as (
    {%- for kind, same, varying in kinds %}
    select
        '{{ kind }}' as comparison,
        a.dataset, a.stratum_name, a.stratum_value,
        a.model as model_a, a.generator as generator_a, a.setting as setting_a,
        b.model as model_b, b.generator as generator_b, b.setting as setting_b,
        a.replicate,
        a.n_pairs_w as n_pairs_a,
        {%- for name in metric_names %}
        b.{{ name }} - a.{{ name }} as {{ name }}{{ "," if not loop.last }}
        {%- endfor %}
    from replicates as a
    inner join replicates as b
        on b.dataset = a.dataset
        and b.stratum_name = a.stratum_name
        and b.stratum_value = a.stratum_value
        and b.replicate = a.replicate
        {%- for column in same %}
        and b.{{ column }} = a.{{ column }}
        {%- endfor %}
        {%- if varying == 'setting' %}
        and (a.setting_rank < b.setting_rank or (a.setting_rank = b.setting_rank and a.setting < b.setting))
        {%- else %}
        and a.{{ varying }} < b.{{ varying }}
        {%- endif %}
    {{ "union all" if not loop.last }}
    {%- endfor %}
),

summary as (
    {{ summarise_replicates('differences', groups, metric_names, 'n_pairs_a', 'n_pairs_a') | indent(4) }}
),

metrics as (
    select dataset, model, generator, setting, stratum_name, stratum_value, metric, estimate, n_pairs
    from {{ ref('paired_metrics') }}
)

select
    summary.comparison,
    summary.dataset,
    summary.stratum_name,
    summary.stratum_value,
    summary.model_a,
    summary.generator_a,
    summary.setting_a,
    summary.model_b,
    summary.generator_b,
    summary.setting_b,
    summary.metric,
    summary.estimate as difference,
    summary.ci_low,
    summary.ci_high,
    metric_a.estimate as estimate_a,
    metric_b.estimate as estimate_b,
    summary.n_pairs_a,
    metric_b.n_pairs as n_pairs_b,
    summary.ci_low > 0 or summary.ci_high < 0 as ci_excludes_zero,
    least(summary.n_pairs_a, metric_b.n_pairs) < {{ var('min_stratum_pairs') }} as is_small_stratum,
    summary.n_boot,
    summary.metric_order
from summary
inner join metrics as metric_a
    on metric_a.dataset = summary.dataset and metric_a.model = summary.model_a
    and metric_a.generator = summary.generator_a and metric_a.setting = summary.setting_a
    and metric_a.stratum_name = summary.stratum_name and metric_a.stratum_value = summary.stratum_value
    and metric_a.metric = summary.metric
inner join metrics as metric_b
    on metric_b.dataset = summary.dataset and metric_b.model = summary.model_b
    and metric_b.generator = summary.generator_b and metric_b.setting = summary.setting_b
    and metric_b.stratum_name = summary.stratum_name and metric_b.stratum_value = summary.stratum_value
    and metric_b.metric = summary.metric
