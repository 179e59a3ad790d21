-- Accuracy, weighted Cohen's kappa (linear and quadratic), macro precision, recall and F1 of each model
-- against the documented level on the test split, with percentile bootstrap CIs (records resampled), and the
-- model's kind and parameter counts when it was trained here (inference.triage_models): the study's Table 1.

{%- set metrics = classification_metric_expressions() %}

with cells as (
    select distinct cell_id, dataset, model, setting, true_level, predicted_level
    from {{ ref('int_performance_records') }}
),

confusion as (
    select cells.dataset, cells.model, cells.setting, weights.replicate,
           cells.true_level, cells.predicted_level, cast(weights.weight as {{ biasmirror.type_double() }}) as weight
    from {{ ref('int_performance_bootstrap_weights') }} as weights
    inner join cells using (cell_id)
),

-- The classes of a group: every level seen as documented or predicted in its observed data.
classes as (
    select distinct dataset, model, setting, true_level as level from cells
    union
    select distinct dataset, model, setting, predicted_level from cells
),

replicates as (
    select distinct dataset, model, setting, replicate from confusion
),

per_class as (
    select
        replicates.dataset, replicates.model, replicates.setting, replicates.replicate, classes.level,
        coalesce(sum(case when confusion.true_level = classes.level and confusion.predicted_level = classes.level then confusion.weight end), 0) as tp,
        coalesce(sum(case when confusion.true_level = classes.level then confusion.weight end), 0) as n_true,
        coalesce(sum(case when confusion.predicted_level = classes.level then confusion.weight end), 0) as n_pred
    from replicates
    inner join classes using (dataset, model, setting)
    left join confusion using (dataset, model, setting, replicate)
    group by replicates.dataset, replicates.model, replicates.setting, replicates.replicate, classes.level
),

macro_averages as (
    select dataset, model, setting, replicate, {{ macro_average_sums() }}
    from per_class
    group by dataset, model, setting, replicate
),

confusion_totals as (
    select dataset, model, setting, replicate, {{ confusion_sums() }}
    from confusion
    group by dataset, model, setting, replicate
),

expected as (
    select
        true_marginals.dataset, true_marginals.model, true_marginals.setting, true_marginals.replicate,
        {{ expected_disagreement_sums() }}
    from (select dataset, model, setting, replicate, level as true_level, n_true as r from per_class) as true_marginals
    inner join (select dataset, model, setting, replicate, level as predicted_level, n_pred as c from per_class) as predicted_marginals
        using (dataset, model, setting, replicate)
    inner join confusion_totals using (dataset, model, setting, replicate)
    group by true_marginals.dataset, true_marginals.model, true_marginals.setting, true_marginals.replicate
),

replicate_metrics as (
    select
        confusion_totals.dataset, confusion_totals.model, confusion_totals.setting, confusion_totals.replicate,
        confusion_totals.n_w,
        {%- for name, expression in metrics.items() %}
        {{ expression }} as {{ name }}{{ "," if not loop.last }}
        {%- endfor %}
    from confusion_totals
    inner join macro_averages using (dataset, model, setting, replicate)
    inner join expected using (dataset, model, setting, replicate)
),

summary as (
    {{ summarise_replicates('replicate_metrics', ['dataset', 'model', 'setting'],
                            metrics.keys() | list, 'n_w', 'n_records') | indent(4) }}
),

triage_models as (
    select dataset, model, kind, input_transform, parameter_count, trainable_parameter_count
    from {{ ref('stg_inference__triage_models') }}
)

select
    summary.*,
    triage_models.kind as model_kind,
    triage_models.input_transform,
    triage_models.parameter_count,
    triage_models.trainable_parameter_count
from summary
left join triage_models
    on triage_models.dataset = summary.dataset
    and triage_models.model = summary.model
