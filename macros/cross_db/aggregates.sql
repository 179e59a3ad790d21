{#- Aggregates that not every engine has. -#}

{#- Any one value of the group, for columns that are constant within it (DuckDB's any_value; PostgreSQL 15 has
    none: min). -#}
{% macro arbitrary(expr) -%}
  {{ return(adapter.dispatch('arbitrary', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__arbitrary(expr) -%}
  any_value({{ expr }})
{%- endmacro %}
{% macro postgres__arbitrary(expr) -%}
  min({{ expr }})
{%- endmacro %}
