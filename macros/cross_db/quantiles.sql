{#- Continuous (linearly interpolated) quantile aggregate, as numpy.quantile's default. -#}
{% macro quantile_cont(expr, q) -%}
  {{ return(adapter.dispatch('quantile_cont', 'biasmirror')(expr, q)) }}
{%- endmacro %}
{% macro duckdb__quantile_cont(expr, q) -%}
  quantile_cont({{ expr }}, {{ q }})
{%- endmacro %}
{% macro postgres__quantile_cont(expr, q) -%}
  percentile_cont({{ q }}) within group (order by {{ expr }})
{%- endmacro %}

{#- Both bounds of a percentile interval in one aggregate (one sort of the values): a list [quantile q_low,
    quantile q_high], interpolated as quantile_cont; index it with [1] and [2]. -#}
{% macro quantile_cont_bounds(expr, q_low, q_high) -%}
  {{ return(adapter.dispatch('quantile_cont_bounds', 'biasmirror')(expr, q_low, q_high)) }}
{%- endmacro %}
{% macro duckdb__quantile_cont_bounds(expr, q_low, q_high) -%}
  quantile_cont({{ expr }}, [{{ q_low }}, {{ q_high }}])
{%- endmacro %}
{% macro postgres__quantile_cont_bounds(expr, q_low, q_high) -%}
  percentile_cont(array[{{ q_low }}, {{ q_high }}]) within group (order by {{ expr }})
{%- endmacro %}
{#- Spark: percentile (exact, interpolated as numpy's default). Its arrays are 0-based: callers index the
    bounds with list_item. -#}
{% macro spark__quantile_cont(expr, q) -%}
  percentile({{ expr }}, {{ q }})
{%- endmacro %}
{% macro spark__quantile_cont_bounds(expr, q_low, q_high) -%}
  percentile({{ expr }}, array({{ q_low }}, {{ q_high }}))
{%- endmacro %}
