-- The state of every audit gate (macro audit_gates, docs/metrics.md "Audit gates") for every data set, model,
-- sex-swap generator and setting, on all pairs (stratum overall): 'failed' when the model crosses the gate's
-- line, 'passed' when it does not, 'not_evaluated' when the metric or its interval is missing, 'disabled' when
-- the gate's threshold var is not set. With var gate_on_q_values the pooled-rate gate judges q_value instead of
-- the interval. A scheduled `dbt build` fails (var gate_severity: error) or warns on a
-- failed gate through the tests in tests/dbt/audit_gates/; the report lists this table.

{%- set gates = audit_gates() %}
{#- var gate_on_q_values: a gate with a q-value rule (rule_q, crossed_q) judges the q-value instead #}
{%- set on_q = (var('gate_on_q_values', false) | string | lower) == 'true' %}

with metrics as (
    select dataset, model, generator, setting, metric, estimate, ci_low, ci_high, q_value, n_pairs, n_changed, is_sparse
    from {{ ref('paired_metrics') }}
    where stratum_name = 'overall'
      and generator not like '%-placebo'
),

gates as (
    {%- for name, gate in gates.items() %}
    select
        {{ sql_string(name) }} as gate,
        {{ sql_string(gate.var) }} as threshold_var,
        {{ sql_string(gate.metric) }} as metric,
        {{ sql_string(gate.rule_q if on_q and 'rule_q' in gate else gate.rule) }} as rule,
        {{ audit_gate_threshold(name) }} as threshold
    {{ "union all" if not loop.last }}
    {%- endfor %}
),

joined as (
    select
        metrics.dataset, metrics.model, metrics.generator, metrics.setting,
        gates.gate, gates.threshold_var, gates.rule, gates.metric, gates.threshold,
        metrics.estimate, metrics.ci_low, metrics.ci_high, metrics.q_value, metrics.n_pairs, metrics.n_changed,
        metrics.is_sparse
    from metrics
    inner join gates on gates.metric = metrics.metric
),

evaluated as (
    select
        joined.*,
        case joined.gate
            {%- for name, gate in gates.items() %}
            when {{ sql_string(name) }} then {{ gate.crossed_q if on_q and 'crossed_q' in gate else gate.crossed }}
            {%- endfor %}
        end as crossed
    from joined
)

select
    gate,
    dataset,
    model,
    generator,
    setting,
    metric,
    rule,
    threshold_var,
    threshold,
    estimate,
    ci_low,
    ci_high,
    q_value,
    n_pairs,
    n_changed,
    is_sparse,
    case
        when threshold is null then 'disabled'
        when crossed is null then 'not_evaluated'
        when crossed then 'failed'
        else 'passed'
    end as state,
    {{ sql_string(var('gate_severity') | lower) }} as severity
from evaluated
