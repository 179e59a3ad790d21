{#- The paired metrics of the triage study (docs/metrics.md), defined once.

    A pair is an original record with documented sex s and its copy with the other sex; o and c are the
    levels predicted for the original and the copy, delta = c - o (> 0: toward less severe). Each metric is a
    function of eight weighted sums over pairs (the sufficient statistics), so the same expressions give the
    point estimate (weights = 1 per pair) and every bootstrap replicate (Poisson weights), for one group of pairs
    or for each side of a comparison. -#}

{#- Per-pair (or per-cell) indicator columns the sums are built from, from a direction ('m_to_f' or 'f_to_m')
    and a delta (counterfactual level - original level): no paired metric needs more of the two levels. -#}
{% macro paired_indicator_columns(direction='direction', delta='delta') -%}
    case when {{ direction }} = 'm_to_f' then 1 else 0 end as is_m_to_f,
    case when {{ delta }} > 0 then 1 else 0 end as is_up,
    case when {{ delta }} < 0 then 1 else 0 end as is_down,
    case when {{ direction }} = 'm_to_f' then {{ delta }} else -{{ delta }} end as female_minus_male
{%- endmacro %}

{#- The sufficient statistics: name -> its per-pair value over the indicator columns. -#}
{% macro paired_sufficient_statistics() %}
  {{ return({
      'n_pairs_w': '1',
      'n_m_to_f': 'is_m_to_f',
      'n_f_to_m': '(1 - is_m_to_f)',
      'up_m_to_f': 'is_m_to_f * is_up',
      'down_m_to_f': 'is_m_to_f * is_down',
      'up_f_to_m': '(1 - is_m_to_f) * is_up',
      'down_f_to_m': '(1 - is_m_to_f) * is_down',
      'sum_female_minus_male': 'female_minus_male'
  }) }}
{% endmacro %}

{#- The sufficient statistics, as aggregate expressions over rows with the indicator columns and a weight. -#}
{% macro paired_metric_sums(weight='weight', suffix='') -%}
  {%- for name, value in paired_sufficient_statistics().items() %}
    sum({{ weight }} * {{ value }}) as {{ name }}{{ suffix }}{{ "," if not loop.last }}
  {%- endfor %}
{%- endmacro %}

{#- name -> expression over the sums (named as in paired_sufficient_statistics, plus `suffix`). Order is the order
    of the rows in audit.paired_metrics. -#}
{% macro paired_metric_expressions(suffix='') %}
  {%- set s = {} -%}
  {%- for name in paired_sufficient_statistics().keys() %}{% do s.update({name: name ~ suffix}) %}{% endfor -%}
  {%- set n = 'cast(' ~ s.n_pairs_w ~ ' as ' ~ biasmirror.type_double() ~ ')' -%}
  {%- set p_up_mf = '(' ~ s.up_m_to_f ~ ' / nullif(cast(' ~ s.n_m_to_f ~ ' as ' ~ biasmirror.type_double() ~ '), 0))' -%}
  {%- set p_down_mf = '(' ~ s.down_m_to_f ~ ' / nullif(cast(' ~ s.n_m_to_f ~ ' as ' ~ biasmirror.type_double() ~ '), 0))' -%}
  {%- set p_up_fm = '(' ~ s.up_f_to_m ~ ' / nullif(cast(' ~ s.n_f_to_m ~ ' as ' ~ biasmirror.type_double() ~ '), 0))' -%}
  {%- set p_down_fm = '(' ~ s.down_f_to_m ~ ' / nullif(cast(' ~ s.n_f_to_m ~ ' as ' ~ biasmirror.type_double() ~ '), 0))' -%}
  {{ return({
      'pdr': '(' ~ s.up_m_to_f ~ ' + ' ~ s.down_m_to_f ~ ' + ' ~ s.up_f_to_m ~ ' + ' ~ s.down_f_to_m ~ ') / nullif(' ~ n ~ ', 0)',
      'p_up_m_to_f': p_up_mf,
      'p_down_m_to_f': p_down_mf,
      'p_up_f_to_m': p_up_fm,
      'p_down_f_to_m': p_down_fm,
      'dts_m_to_f': '(' ~ p_up_mf ~ ' - ' ~ p_down_mf ~ ')',
      'dts_f_to_m': '(' ~ p_up_fm ~ ' - ' ~ p_down_fm ~ ')',
      'nats_plus': '(' ~ p_up_fm ~ ' - ' ~ p_up_mf ~ ')',
      'nats_minus': '(' ~ p_down_fm ~ ' - ' ~ p_down_mf ~ ')',
      'nmd': s.sum_female_minus_male ~ ' / nullif(' ~ n ~ ', 0)',
      'pooled_rate': '((' ~ s.up_m_to_f ~ ' - ' ~ s.down_m_to_f ~ ') - (' ~ s.up_f_to_m ~ ' - ' ~ s.down_f_to_m ~ ')) / nullif(' ~ n ~ ', 0)'
  }) }}
{% endmacro %}

{#- The paired metrics whose value without sex bias is zero (a difference between directions or senses): the
    ones audit.paired_metrics tests (p_value, q_value, mde). The flip rates (pdr, p_up_*, p_down_*) are positive
    whenever a model is noisy at all, bias or not: zero is no null for them (compare them with a placebo). -#}
{% macro paired_signed_metrics() %}
  {{ return(['dts_m_to_f', 'dts_f_to_m', 'nats_plus', 'nats_minus', 'nmd', 'pooled_rate']) }}
{% endmacro %}

{#- A pair's state in one group, as a small integer: 0 when the pair is absent from the group, else
    1 + 9 * (1 if m_to_f else 0) + (delta + 4) for delta in -4 .. 4 (levels 1-5). The comparison bootstrap
    (int_comparison_joint_cells) works on these codes. -#}
{% macro paired_state_code(direction='direction', delta='delta') -%}
    (1 + 9 * (case when {{ direction }} = 'm_to_f' then 1 else 0 end) + ({{ delta }} + 4))
{%- endmacro %}

{#- The state of a pair with documented-sex code `base_direction_code` (0 f_to_m, 1 m_to_f) whose copy kept the
    original's level: the state most pairs have in every group. -#}
{% macro paired_default_state(base_direction_code) -%}
    (5 + 9 * {{ base_direction_code }})
{%- endmacro %}

{#- The sufficient statistics of one pair with state code `state` (0 = absent: all zero): name -> expression. -#}
{% macro paired_state_statistic_expressions(state) %}
  {%- set present = '(case when ' ~ state ~ ' > 0 then 1 else 0 end)' -%}
  {%- set delta = '(((' ~ state ~ ' - 1) % 9) - 4)' -%}
  {%- set indicators = {
      'is_m_to_f': '(case when ' ~ state ~ ' >= 10 then 1 else 0 end)',
      'is_up': '(case when ' ~ delta ~ ' > 0 then 1 else 0 end)',
      'is_down': '(case when ' ~ delta ~ ' < 0 then 1 else 0 end)',
      'female_minus_male': '(case when ' ~ state ~ ' >= 10 then ' ~ delta ~ ' else -' ~ delta ~ ' end)'
  } -%}
  {%- set out = {} -%}
  {%- for name, value in paired_sufficient_statistics().items() %}
    {%- set ns = namespace(expression=value) -%}
    {%- for indicator, replacement in indicators.items() %}{% set ns.expression = ns.expression | replace(indicator, replacement) %}{% endfor %}
    {%- do out.update({name: present ~ ' * ' ~ ns.expression}) -%}
  {%- endfor %}
  {{ return(out) }}
{% endmacro %}

{#- The strata every pair belongs to by itself, in long format: 'overall' (value 'all') and, when the documented
    level is known, 'documented_level'. `pairs`: a relation with the `columns` and true_level; returns those
    columns plus stratum_name and stratum_value. (The strata a pair gets from its record or import are in
    int_pair_record_strata.) -#}
{% macro pair_self_strata(pairs, columns) -%}
    select {{ columns | join(', ') }}, 'overall' as stratum_name, 'all' as stratum_value
    from {{ pairs }}
    union all
    select {{ columns | join(', ') }}, 'documented_level', cast(true_level as {{ biasmirror.type_text() }})
    from {{ pairs }}
    where true_level is not null
{%- endmacro %}

{#- name -> the number of changed pairs a metric is estimated from, over the sums (as paired_metric_expressions):
    the pairs whose copy moved in the direction(s) and sense(s) the metric counts. For a difference between the
    two directions (nats_plus, nats_minus) it is the smaller of the two counts. The sparse-interval rule
    (is_sparse in the marts, var min_changed_pairs) compares it with a minimum. -#}
{% macro paired_metric_changes(suffix='') %}
  {%- set s = {} -%}
  {%- for name in paired_sufficient_statistics().keys() %}{% do s.update({name: name ~ suffix}) %}{% endfor -%}
  {%- set all_changes = '(' ~ s.up_m_to_f ~ ' + ' ~ s.down_m_to_f ~ ' + ' ~ s.up_f_to_m ~ ' + ' ~ s.down_f_to_m ~ ')' -%}
  {{ return({
      'pdr': all_changes,
      'p_up_m_to_f': s.up_m_to_f,
      'p_down_m_to_f': s.down_m_to_f,
      'p_up_f_to_m': s.up_f_to_m,
      'p_down_f_to_m': s.down_f_to_m,
      'dts_m_to_f': '(' ~ s.up_m_to_f ~ ' + ' ~ s.down_m_to_f ~ ')',
      'dts_f_to_m': '(' ~ s.up_f_to_m ~ ' + ' ~ s.down_f_to_m ~ ')',
      'nats_plus': 'least(' ~ s.up_f_to_m ~ ', ' ~ s.up_m_to_f ~ ')',
      'nats_minus': 'least(' ~ s.down_f_to_m ~ ', ' ~ s.down_m_to_f ~ ')',
      'nmd': all_changes,
      'pooled_rate': all_changes
  }) }}
{% endmacro %}

{#- Whether an interval is too sparse to be read as a 95% interval: fewer changed pairs than var
    min_changed_pairs behind the metric (paired_metric_changes), or no interval, or one of zero width. The
    coverage simulation (benchmarks/coverage_simulation.py, docs/intervals.md) sets the minimum. -#}
{% macro sparse_interval_flag(n_changed, ci_low, ci_high) -%}
    (coalesce({{ n_changed }}, 0) < {{ var('min_changed_pairs') }} or {{ ci_low }} is null or {{ ci_high }} is null
     or {{ ci_high }} - {{ ci_low }} <= 0)
{%- endmacro %}
