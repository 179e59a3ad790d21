-- The headline rows every successful build appended (macro record_audit_history): the audit across builds.
select
    invocation_id,
    built_at,
    dataset,
    model,
    generator,
    setting,
    metric,
    metric_order,
    estimate,
    ci_low,
    ci_high,
    p_value,
    q_value,
    mde,
    n_pairs,
    n_changed,
    n_boot,
    is_sparse,
    data_fingerprint,
    model_fingerprint
from {{ source('inference', 'audit_history') }}
