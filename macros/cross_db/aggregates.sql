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
{#- Spark (and Databricks): any_value. -#}
{% macro spark__arbitrary(expr) -%}
  any_value({{ expr }})
{%- endmacro %}

{#- The texts of a group joined by `separator`, in the order of `order_by`. Spark writes the order as a WITHIN GROUP
    clause. -#}
{% macro string_agg_ordered(expr, separator, order_by) -%}
  {{ return(adapter.dispatch('string_agg_ordered', 'biasmirror')(expr, separator, order_by)) }}
{%- endmacro %}
{% macro default__string_agg_ordered(expr, separator, order_by) -%}
  string_agg({{ expr }}, {{ separator }} order by {{ order_by }})
{%- endmacro %}
{% macro spark__string_agg_ordered(expr, separator, order_by) -%}
  string_agg({{ expr }}, {{ separator }}) within group (order by {{ order_by }})
{%- endmacro %}
