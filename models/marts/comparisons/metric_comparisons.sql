-- Differences of every paired metric between settings, models and counterfactual generators, with paired
-- bootstrap CIs: within a comparison and stratum, a pair (or a patient, var bootstrap_unit) has one resampling
-- multiplicity on both sides (int_comparison_joint_cells), so the replicates of int_metric_comparison_replicates
-- bootstrap the difference as a paired statistic. difference = metric(b) - metric(a).
--   setting:   same data set, model, generator and stratum; a is the earlier setting (full, text_only, tabular_only)
--   model:     same data set, generator, setting and stratum (e.g. pretrained vs from scratch, original vs
--              neutralized); a is the model whose name sorts first
--   generator: same data set, model, setting and stratum (e.g. rule-based vs LLM rewriter); a sorts first
-- Every difference is tested against zero (p_value from the bootstrap SE, q_value adjusted over the comparison's
-- family: one comparison of two groups and one stratum variable, all values and metrics; mde), as in
-- audit.paired_metrics (macros/metrics/significance.sql).

{%- set metric_names = paired_metric_expressions().keys() | list %}
{%- set groups = ['comparison', 'dataset', 'stratum_name', 'stratum_value', 'model_a', 'generator_a', 'setting_a',
                  'model_b', 'generator_b', 'setting_b'] %}

with differences as (
    select design_id, replicate, n_pairs_a, {{ metric_names | join(', ') }}
    from {{ ref('int_metric_comparison_replicates') }}
),

-- the labels of each comparison and stratum (read from the small tables: the replicates view is read once)
designs as (
    select distinct
        cells.design_id, comparisons.comparison, comparisons.dataset, strata.stratum_name, strata.stratum_value,
        comparisons.model_a, comparisons.generator_a, comparisons.setting_a,
        comparisons.model_b, comparisons.generator_b, comparisons.setting_b
    from {{ ref('int_comparison_joint_cells') }} as cells
    inner join {{ ref('int_pair_comparisons') }} as comparisons using (comparison_id)
    inner join (select distinct stratum_id, stratum_name, stratum_value from {{ ref('int_pair_cells') }}) as strata
        using (stratum_id)
),

summary as (
    select
        {% for column in groups %}designs.{{ column }}, {% endfor %}
        by_design.metric, by_design.estimate, by_design.ci_low, by_design.ci_high, by_design.se, by_design.n_pairs_a,
        by_design.n_boot, by_design.metric_order
    from (
        {{ summarise_replicates('differences', ['design_id'], metric_names, 'n_pairs_a', 'n_pairs_a', with_se=true) | indent(8) }}
    ) as by_design
    inner join designs using (design_id)
),

metrics as (
    select dataset, model, generator, setting, stratum_name, stratum_value, metric, estimate, n_pairs, n_changed
    from {{ ref('paired_metrics') }}
),

compared as (
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
        least(metric_a.n_changed, metric_b.n_changed) as n_changed,
        {{ sparse_interval_flag('least(metric_a.n_changed, metric_b.n_changed)', 'summary.ci_low', 'summary.ci_high') }} as is_sparse,
        summary.n_boot,
        summary.se,
        {{ bootstrap_p_value('summary.estimate', 'summary.se') }} as p_value,
        {{ mde_multiplier() }} * summary.se as mde,
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
),

adjusted as (
    {{ adjusted_p_values('compared', ['comparison', 'dataset', 'model_a', 'generator_a', 'setting_a', 'model_b',
                                      'generator_b', 'setting_b', 'stratum_name']) | indent(4) }}
)

select
    comparison, dataset, stratum_name, stratum_value, model_a, generator_a, setting_a, model_b, generator_b,
    setting_b, metric, difference, ci_low, ci_high, estimate_a, estimate_b, n_pairs_a, n_pairs_b, ci_excludes_zero,
    is_small_stratum, n_changed, is_sparse, n_boot, se, p_value, q_value, n_tests, mde, metric_order
from adjusted
