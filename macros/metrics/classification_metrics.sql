{#- Model-performance metrics against the documented level, defined once, from weighted confusion counts
    (the same expressions give the point estimate and each bootstrap replicate).

    Per-class sums (one row per group, replicate and class k present in the group's observed data):
      tp = weight of records with true = predicted = k, n_true = weight with true = k, n_pred = weight with
      predicted = k. Macro averages follow scikit-learn with zero_division = 0.
    Weighted Cohen's kappa uses the distance between levels, |i - j| (linear) or (i - j)^2 (quadratic):
      kappa = 1 - sum(w_ij * O_ij) / sum(w_ij * r_i * c_j / n). -#}

{% macro classification_metric_expressions() %}
  {{ return({
    'accuracy': 'sum_correct / nullif(n_w, 0)',
    'kappa_linear': '1 - disagreement_linear / nullif(expected_disagreement_linear, 0)',
    'kappa_quadratic': '1 - disagreement_quadratic / nullif(expected_disagreement_quadratic, 0)',
    'macro_precision': 'macro_precision',
    'macro_recall': 'macro_recall',
    'macro_f1': 'macro_f1'
  }) }}
{% endmacro %}

{#- Aggregates over per-class rows (tp, n_true, n_pred) giving the macro averages. -#}
{% macro macro_average_sums() -%}
    avg(coalesce(tp / nullif(n_pred, 0), 0)) as macro_precision,
    avg(coalesce(tp / nullif(n_true, 0), 0)) as macro_recall,
    avg(coalesce(2 * tp / nullif(n_true + n_pred, 0), 0)) as macro_f1
{%- endmacro %}

{#- Aggregates over confusion rows (true_level, predicted_level, weight). -#}
{% macro confusion_sums(weight='weight') -%}
    sum({{ weight }}) as n_w,
    sum(case when true_level = predicted_level then {{ weight }} else 0 end) as sum_correct,
    sum({{ weight }} * abs(true_level - predicted_level)) as disagreement_linear,
    sum({{ weight }} * (true_level - predicted_level) * (true_level - predicted_level)) as disagreement_quadratic
{%- endmacro %}

{#- Aggregates over pairs of marginals (true level i with weight r_i, predicted level j with weight c_j). -#}
{% macro expected_disagreement_sums() -%}
    sum(r * c * abs(true_level - predicted_level)) / nullif(max(n_w), 0) as expected_disagreement_linear,
    sum(r * c * (true_level - predicted_level) * (true_level - predicted_level)) / nullif(max(n_w), 0) as expected_disagreement_quadratic
{%- endmacro %}
