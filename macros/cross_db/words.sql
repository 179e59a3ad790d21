{#- Text helpers for keyword strata and term associations (RE2 syntax on DuckDB). -#}

{#- Replace every match of a regular expression. -#}
{% macro regex_replace_all(expr, pattern, replacement) -%}
  {{ return(adapter.dispatch('regex_replace_all', 'biasmirror')(expr, pattern, replacement)) }}
{%- endmacro %}
{% macro duckdb__regex_replace_all(expr, pattern, replacement) -%}
  regexp_replace({{ expr }}, {{ pattern }}, {{ replacement }}, 'g')
{%- endmacro %}
{% macro postgres__regex_replace_all(expr, pattern, replacement) -%}
  regexp_replace({{ expr }}, {{ biasmirror.postgres_pattern(pattern) }}, {{ replacement }}, 'g')
{%- endmacro %}

{#- One row per word of a text column: the relation's `id_columns` and `word` (lower case; a word is a run of
    letters of any alphabet, so digits, punctuation and de-identification marks such as ___ separate words).
    Empty strings are not returned. -#}
{% macro split_words(relation, id_columns, text_column) -%}
  {{ return(adapter.dispatch('split_words', 'biasmirror')(relation, id_columns, text_column)) }}
{%- endmacro %}
{% macro duckdb__split_words(relation, id_columns, text_column) -%}
  select {{ id_columns | join(', ') }}, word
  from (
      select {{ id_columns | join(', ') }}, unnest(regexp_split_to_array(lower({{ text_column }}), '[^\pL]+')) as word
      from {{ relation }}
  )
  where word <> ''
{%- endmacro %}
{#- PostgreSQL's regular expressions have no \pL: [:alpha:] is every letter of the database's (UTF-8) locale. -#}
{% macro postgres__split_words(relation, id_columns, text_column) -%}
  select {{ id_columns | join(', ') }}, word
  from (
      select {{ id_columns | join(', ') }}, unnest(regexp_split_to_array(lower({{ text_column }}), '[^[:alpha:]]+')) as word
      from {{ relation }}
  ) as words
  where word <> ''
{%- endmacro %}
{#- Spark: Java regular expressions (a replacement names a group $1, not \1). -#}
{% macro spark__regex_replace_all(expr, pattern, replacement) -%}
  regexp_replace({{ expr }}, {{ biasmirror.spark_literal(pattern) }}, {{ replacement }})
{%- endmacro %}
{% macro spark__split_words(relation, id_columns, text_column) -%}
  select {{ id_columns | join(', ') }}, word
  from (
      select {{ id_columns | join(', ') }}, explode(split(lower({{ text_column }}), '[^\\pL]+')) as word
      from {{ relation }}
  ) as words
  where word <> ''
{%- endmacro %}
