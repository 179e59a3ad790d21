{#- Continuous (linearly interpolated) quantile aggregate, as numpy.quantile's default. -#}
{% macro quantile_cont(expr, q) -%}
  {{ return(adapter.dispatch('quantile_cont', 'biasmirror')(expr, q)) }}
{%- endmacro %}
{% macro duckdb__quantile_cont(expr, q) -%}
  quantile_cont({{ expr }}, {{ q }})
{%- endmacro %}
