{#- Use the folder's schema name as-is (staging, intermediate, audit, reference) instead of dbt's
    default "<target schema>_<custom schema>", so analysts and BI tools see stable schema names. -#}
{% macro generate_schema_name(custom_schema_name, node) -%}
    {{ (custom_schema_name or target.schema) | trim }}
{%- endmacro %}
