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
{% macro spark__sorted_list_agg(expr) -%}
  array_sort(collect_list({{ expr }}))
{%- endmacro %}
{#- Spark: a generator in the select list -#}
{% macro spark__unnest_list(expr) -%}
  explode({{ expr }})
{%- endmacro %}

{#- The i-th element of a list, counted from 1 (Spark's arrays are 0-based under [ ]: element_at counts from 1). -#}
{% macro list_item(expr, i) -%}
  {{ return(adapter.dispatch('list_item', 'biasmirror')(expr, i)) }}
{%- endmacro %}
{% macro default__list_item(expr, i) -%}
  {{ expr }}[{{ i }}]
{%- endmacro %}
{% macro spark__list_item(expr, i) -%}
  element_at({{ expr }}, {{ i }})
{%- endmacro %}

{#- The elements of a list from the i-th (counted from 1) to the end. -#}
{% macro list_tail(expr, i) -%}
  {{ return(adapter.dispatch('list_tail', 'biasmirror')(expr, i)) }}
{%- endmacro %}
{% macro default__list_tail(expr, i) -%}
  {{ expr }}[{{ i }}:]
{%- endmacro %}
{% macro spark__list_tail(expr, i) -%}
  slice({{ expr }}, {{ i }}, size({{ expr }}) - {{ i }} + 1)
{%- endmacro %}

{#- How many elements of a list of numbers are <= x. -#}
{% macro list_count_at_most(expr, x) -%}
  {{ return(adapter.dispatch('list_count_at_most', 'biasmirror')(expr, x)) }}
{%- endmacro %}
{% macro duckdb__list_count_at_most(expr, x) -%}
  len(list_filter({{ expr }}, v -> v <= {{ x }}))
{%- endmacro %}
{% macro postgres__list_count_at_most(expr, x) -%}
  (select count(*) from unnest({{ expr }}) as tail (v) where tail.v <= {{ x }})
{%- endmacro %}
{% macro spark__list_count_at_most(expr, x) -%}
  size(filter({{ expr }}, v -> v <= {{ x }}))
{%- endmacro %}

{#- Set-returning, in a select list: one row per integer from lo to hi (both included). -#}
{% macro integers_between(lo, hi) -%}
  {{ return(adapter.dispatch('integers_between', 'biasmirror')(lo, hi)) }}
{%- endmacro %}
{% macro duckdb__integers_between(lo, hi) -%}
  unnest(range({{ lo }}, {{ hi }} + 1))
{%- endmacro %}
{% macro postgres__integers_between(lo, hi) -%}
  generate_series({{ lo }}, {{ hi }})
{%- endmacro %}
{% macro spark__integers_between(lo, hi) -%}
  explode(sequence({{ lo }}, {{ hi }}))
{%- endmacro %}
