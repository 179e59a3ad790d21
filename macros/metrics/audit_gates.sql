{#- Audit gates for scheduled builds (docs/metrics.md, "Audit gates"), defined once.

    A gate is a pre-registered line a model must not cross, evaluated on the overall stratum of
    audit.paired_metrics for every data set, model, sex-swap generator (placebo generators are not gated) and
    setting. Each gate's threshold is a var; a null threshold (the default) disables the gate. The dbt test of a
    gate (tests/dbt/audit_gates/) fails on every row of audit.gate_results whose state is 'failed', with the
    severity of var gate_severity (warn or error).

    name -> {var, metric, rule (text shown in the mart and the report), crossed (SQL over estimate, ci_low,
    ci_high, q_value and threshold)}. With var gate_on_q_values a gate that judges an interval judges the
    q-value instead (rule_q, crossed_q): q_value below alpha = 1 - ci_level and the estimate beyond the line. The
    q-value is adjusted over the overall stratum's tested metrics of the group (audit.paired_metrics). -#}
{% macro audit_gates() %}
  {{ return({
      'max_pdr': {
          'var': 'gate_max_pdr',
          'metric': 'pdr',
          'rule': 'pdr above the threshold',
          'crossed': 'estimate > threshold'
      },
      'pooled_rate_margin': {
          'var': 'gate_pooled_rate_margin',
          'metric': 'pooled_rate',
          'rule': 'pooled-rate interval excludes zero by more than the margin',
          'crossed': '(ci_low > threshold or ci_high < -threshold)',
          'rule_q': 'pooled-rate q-value below 1 - ci_level and estimate beyond the margin',
          'crossed_q': '(case when q_value is not null and estimate is not null then q_value < '
                       ~ biasmirror.bootstrap_config().alpha ~ ' and abs(estimate) > threshold end)'
      }
  }) }}
{% endmacro %}

{#- The threshold of a gate as a SQL literal (null when its var is not set). -#}
{% macro audit_gate_threshold(gate) -%}
  {%- set value = var(biasmirror.audit_gates()[gate]['var'], none) -%}
  {%- set double = biasmirror.type_double() | trim -%}
  {{- 'cast(null as ' ~ double ~ ')' if value is none else 'cast(' ~ (value | float) ~ ' as ' ~ double ~ ')' -}}
{%- endmacro %}

{#- The rows of audit.gate_results that fail a gate: what its dbt test returns. -#}
{% macro audit_gate_failures(gate) -%}
    select dataset, model, generator, setting, gate, metric, estimate, ci_low, ci_high, q_value, threshold, is_sparse
    from {{ ref('gate_results') }}
    where gate = {{ biasmirror.sql_string(gate) }} and state = 'failed'
{%- endmacro %}

{#- True for the result of an audit gate's test that failed: the model crossed a line, the build itself is sound.
    publish_warehouse and record_build let such a run publish and record itself (dbt still exits with an
    error), so the published audit.gate_results and the report show the failed gate. -#}
{% macro is_failed_audit_gate(result) -%}
  {{- return(result.node.resource_type == 'test' and 'audit_gate' in (result.node.tags or [])
             and (result.status | string | lower) == 'fail') -}}
{%- endmacro %}

{#- The severity of the gates' tests: var gate_severity (warn or error). dbt reads it while parsing, before the
    on-run-start hooks: an invalid value parses as warn here, and validate_vars then stops the run with the
    project's message naming the var and what is allowed. -#}
{% macro audit_gate_severity() -%}
  {%- set value = var('gate_severity', 'warn') -%}
  {{- return(value if value in ('warn', 'error') else 'warn') -}}
{%- endmacro %}
