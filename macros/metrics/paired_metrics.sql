{#- The paired metrics of the triage study (docs/metrics.md), defined once.

    A pair is an original record with documented sex s and its copy with the other sex; o and c are the
    levels predicted for the original and the copy, delta = c - o (> 0: toward less severe). Each metric is a
    function of seven weighted sums over pairs, so the same expressions give the point estimate (weights =
    1 per pair) and every bootstrap replicate (Poisson weights). -#}

{#- Per-pair (or per-cell) indicator columns the sums are built from. Expects columns direction and
    delta (counterfactual level - original level): no paired metric needs more of the two levels. -#}
{% macro paired_indicator_columns() -%}
    case when direction = 'm_to_f' then 1 else 0 end as is_m_to_f,
    case when delta > 0 then 1 else 0 end as is_up,
    case when delta < 0 then 1 else 0 end as is_down,
    case when direction = 'm_to_f' then delta else -delta end as female_minus_male
{%- endmacro %}

{#- The sufficient statistics, as aggregate expressions over rows with the indicator columns and a weight. -#}
{% macro paired_metric_sums(weight='weight') -%}
    sum({{ weight }}) as n_pairs_w,
    sum({{ weight }} * is_m_to_f) as n_m_to_f,
    sum({{ weight }} * (1 - is_m_to_f)) as n_f_to_m,
    sum({{ weight }} * is_m_to_f * is_up) as up_m_to_f,
    sum({{ weight }} * is_m_to_f * is_down) as down_m_to_f,
    sum({{ weight }} * (1 - is_m_to_f) * is_up) as up_f_to_m,
    sum({{ weight }} * (1 - is_m_to_f) * is_down) as down_f_to_m,
    sum({{ weight }} * female_minus_male) as sum_female_minus_male
{%- endmacro %}

{#- name -> expression over the sums. Order is the order of the rows in audit.paired_metrics. -#}
{% macro paired_metric_expressions() %}
  {%- set n = 'cast(n_pairs_w as double)' -%}
  {%- set p_up_mf = '(up_m_to_f / nullif(cast(n_m_to_f as double), 0))' -%}
  {%- set p_down_mf = '(down_m_to_f / nullif(cast(n_m_to_f as double), 0))' -%}
  {%- set p_up_fm = '(up_f_to_m / nullif(cast(n_f_to_m as double), 0))' -%}
  {%- set p_down_fm = '(down_f_to_m / nullif(cast(n_f_to_m as double), 0))' -%}
  {{ return({
      'pdr': '(up_m_to_f + down_m_to_f + up_f_to_m + down_f_to_m) / nullif(' ~ n ~ ', 0)',
      'p_up_m_to_f': p_up_mf,
      'p_down_m_to_f': p_down_mf,
      'p_up_f_to_m': p_up_fm,
      'p_down_f_to_m': p_down_fm,
      'dts_m_to_f': '(' ~ p_up_mf ~ ' - ' ~ p_down_mf ~ ')',
      'dts_f_to_m': '(' ~ p_up_fm ~ ' - ' ~ p_down_fm ~ ')',
      'nats_plus': '(' ~ p_up_fm ~ ' - ' ~ p_up_mf ~ ')',
      'nats_minus': '(' ~ p_down_fm ~ ' - ' ~ p_down_mf ~ ')',
      'nmd': 'sum_female_minus_male / nullif(' ~ n ~ ', 0)',
      'pooled_rate': '((up_m_to_f - down_m_to_f) - (up_f_to_m - down_f_to_m)) / nullif(' ~ n ~ ', 0)'
  }) }}
{% endmacro %}
