{#- Regular expressions (RE2 syntax on DuckDB). -#}
{% macro regex_matches(expr, pattern) -%}
  {{ return(adapter.dispatch('regex_matches', 'biasmirror')(expr, pattern)) }}
{%- endmacro %}
{% macro duckdb__regex_matches(expr, pattern) -%}
  regexp_matches({{ expr }}, {{ pattern }})
{%- endmacro %}

{% macro regex_extract(expr, pattern, group=0) -%}
  {{ return(adapter.dispatch('regex_extract', 'biasmirror')(expr, pattern, group)) }}
{%- endmacro %}
{% macro duckdb__regex_extract(expr, pattern, group) -%}
  nullif(regexp_extract({{ expr }}, {{ pattern }}, {{ group }}), '')
{%- endmacro %}

{#- Escape regular-expression metacharacters so that a text is matched literally. -#}
{% macro regex_escape(expr) -%}
  {{ return(adapter.dispatch('regex_escape', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__regex_escape(expr) -%}
  regexp_escape({{ expr }})
{%- endmacro %}
