{#- Lists, for the bootstrap's unit signatures. -#}

{#- Aggregate: the values of `expr` in a group as a list sorted ascending (duplicates kept), so that two groups
    holding the same values give equal lists whatever the row order. -#}
{% macro sorted_list_agg(expr) -%}
  {{ return(adapter.dispatch('sorted_list_agg', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__sorted_list_agg(expr) -%}
  list_sort(list({{ expr }}))
{%- endmacro %}
{% macro postgres__sorted_list_agg(expr) -%}
  array_agg({{ expr }} order by {{ expr }})
{%- endmacro %}

{#- Set-returning: one row per element of the list `expr`. -#}
{% macro unnest_list(expr) -%}
  {{ return(adapter.dispatch('unnest_list', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__unnest_list(expr) -%}
  unnest({{ expr }})
{%- endmacro %}
{% macro postgres__unnest_list(expr) -%}
  unnest({{ expr }})
{%- endmacro %}
