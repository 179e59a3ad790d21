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

{#- The files of a file-based data set are read by the engine, on the machine that runs it: DuckDB reads them
    beside dbt; a PostgreSQL server cannot. On PostgreSQL, load the data set into tables (MIMIC-IV: the mimic-code
    scripts, then var mimic_source: tables) or leave its folder unset. -#}
{% macro raw_files_unsupported(path) -%}
  {{ exceptions.raise_compiler_error("The " ~ target.type ~ " target cannot read the raw file " ~ path ~ ": raw "
      ~ "files are read by DuckDB only. Load the data set into database tables (MIMIC-IV with the MIT-LCP "
      ~ "mimic-code scripts, then --vars '{mimic_source: tables}'), or leave its folder var and environment "
      ~ "variable empty (docs/postgresql.md).") }}
{%- endmacro %}

{% macro default__read_text_file(path) -%}
  {{ biasmirror.raw_files_unsupported(path) }}
{%- endmacro %}
