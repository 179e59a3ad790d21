{#- The paired metrics reported per term of the notes (audit.term_associations): a subset of
    paired_metric_expressions(), never restated. -#}
{% macro term_metric_names() %}
  {{ return(['pdr', 'dts_m_to_f', 'dts_f_to_m', 'pooled_rate']) }}
{% endmacro %}
