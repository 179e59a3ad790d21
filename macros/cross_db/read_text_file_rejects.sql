{#- Reading a raw file for validation: rows the reader cannot decode (invalid UTF-8, a broken line) are set
    aside and reported instead of failing the whole scan, so that the message can name the line and column.

    read_text_file_recording_rejects(path): like read_text_file, recording rejected rows;
    text_file_rejects(path): relation (line, column_name, error_type, error_message) of the last such scan;
    reset_text_file_rejects(): statements (a list) that clear what earlier scans recorded.
    A Parquet file is typed and UTF-8 by construction: it records nothing. -#}
{% macro read_text_file_recording_rejects(path) -%}
  {{ return(adapter.dispatch('read_text_file_recording_rejects', 'biasmirror')(path)) }}
{%- endmacro %}
{% macro duckdb__read_text_file_recording_rejects(path) -%}
  {%- if path.endswith('.parquet') -%}
    {{ biasmirror.read_text_file(path) }}
  {%- else -%}
    read_csv({{ biasmirror.sql_string(path) }}, header = true, all_varchar = true, max_line_size = 16777216,
             store_rejects = true, rejects_table = 'biasmirror_raw_rejects', rejects_scan = 'biasmirror_raw_reject_scans')
  {%- endif -%}
{%- endmacro %}

{#- Like read_text_file_recording_rejects, every column as text, plus `row_column`: the record's number in the file
    (1 = the first record after the header; rows the reader rejects are not numbered). -#}
{% macro numbered_text_file_recording_rejects(path, row_column) -%}
  {{ return(adapter.dispatch('numbered_text_file_recording_rejects', 'biasmirror')(path, row_column)) }}
{%- endmacro %}
{% macro duckdb__numbered_text_file_recording_rejects(path, row_column) -%}
  {%- if path.endswith('.parquet') -%}
    (select ordinality as {{ row_column }}, columns(* exclude (ordinality))::varchar
     from read_parquet({{ biasmirror.sql_string(path) }}) with ordinality)
  {%- else -%}
    (select ordinality as {{ row_column }}, * exclude (ordinality)
     from read_csv({{ biasmirror.sql_string(path) }}, header = true, all_varchar = true, max_line_size = 16777216,
                   store_rejects = true, rejects_table = 'biasmirror_raw_rejects',
                   rejects_scan = 'biasmirror_raw_reject_scans') with ordinality)
  {%- endif -%}
{%- endmacro %}

{% macro text_file_rejects(path) -%}
  {{ return(adapter.dispatch('text_file_rejects', 'biasmirror')(path)) }}
{%- endmacro %}
{% macro duckdb__text_file_rejects(path) -%}
  {%- if path.endswith('.parquet') -%}
    (select cast(null as bigint) as line, cast(null as varchar) as column_name, cast(null as varchar) as error_type,
            cast(null as varchar) as error_message where false)
  {%- else -%}
    (select line, column_name, error_type, error_message from biasmirror_raw_rejects)
  {%- endif -%}
{%- endmacro %}

{% macro reset_text_file_rejects() -%}
  {{ return(adapter.dispatch('reset_text_file_rejects', 'biasmirror')()) }}
{%- endmacro %}
{% macro duckdb__reset_text_file_rejects() -%}
  {{ return(['drop table if exists biasmirror_raw_rejects', 'drop table if exists biasmirror_raw_reject_scans']) }}
{%- endmacro %}

{#- Engines other than DuckDB read no raw files (macros/cross_db/read_text_file.sql, raw_files_unsupported). -#}
{% macro default__read_text_file_recording_rejects(path) -%}
  {{ biasmirror.raw_files_unsupported(path) }}
{%- endmacro %}
{% macro default__numbered_text_file_recording_rejects(path, row_column) -%}
  {{ biasmirror.raw_files_unsupported(path) }}
{%- endmacro %}
{% macro default__text_file_rejects(path) -%}
  {{ biasmirror.raw_files_unsupported(path) }}
{%- endmacro %}
{% macro default__reset_text_file_rejects() -%}
  {{ return([]) }}
{%- endmacro %}
