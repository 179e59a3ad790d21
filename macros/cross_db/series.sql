{#- A relation with one integer column `{{ column }}` holding 0 .. n-1. -#}
{% macro integer_series(n, column='i') -%}
  {{ return(adapter.dispatch('integer_series', 'biasmirror')(n, column)) }}
{%- endmacro %}
{% macro duckdb__integer_series(n, column) -%}
  (select range as {{ column }} from range({{ n }}))
{%- endmacro %}
{% macro postgres__integer_series(n, column) -%}
  (select cast(generate_series(0, {{ n }} - 1) as bigint) as {{ column }})
{%- endmacro %}
