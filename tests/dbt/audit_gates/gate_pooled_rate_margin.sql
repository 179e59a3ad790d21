-- Audit gate pooled_rate_margin (macro audit_gates): fails on every data set, model, generator and setting that crosses it,
-- with the severity of var gate_severity; disabled while its threshold var is not set.
{{ config(severity=audit_gate_severity(), enabled=var(audit_gates()['pooled_rate_margin']['var'], none) is not none,
          tags=['audit_gate']) }}
{{ audit_gate_failures('pooled_rate_margin') }}
