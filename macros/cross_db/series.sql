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
{#- Spark: range() for a constant n (a relation Spark splits into partitions); its argument must be a constant, so an
    expression (a subquery) goes through sequence, with no row for n = 0 (sequence(0, -1) would count down). -#}
{% macro spark__integer_series(n, column) -%}
  {%- if n is number -%}
  (select id as {{ column }} from range({{ n }}))
  {%- else -%}
  (select explode(sequence(cast(0 as bigint), last_index)) as {{ column }}
   from (select cast({{ n }} as bigint) - 1 as last_index) as bounds where last_index >= 0)
  {%- endif -%}
{%- endmacro %}
