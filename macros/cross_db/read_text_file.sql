{#- Table expression reading a CSV(.gz) or Parquet file with every column as text. -#}
{% macro read_text_file(path) -%}
  {{ return(adapter.dispatch('read_text_file', 'biasmirror')(path)) }}
{%- endmacro %}

{% macro duckdb__read_text_file(path) -%}
  {%- if path.endswith('.parquet') -%}
    (select columns(*)::varchar from read_parquet({{ biasmirror.sql_string(path) }}))
  {%- else -%}
    read_csv({{ biasmirror.sql_string(path) }}, header = true, all_varchar = true, max_line_size = 16777216)
  {%- endif -%}
{%- endmacro %}
