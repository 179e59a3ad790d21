{#- A text as an SQL string literal. -#}
{% macro sql_string(value) -%}
  {{ return(adapter.dispatch('sql_string', 'biasmirror')(value)) }}
{%- endmacro %}
{% macro default__sql_string(value) -%}
  '{{ value | replace("'", "''") }}'
{%- endmacro %}
{#- Spark reads a backslash in a literal as the start of an escape: doubled, it stands for itself. -#}
{% macro spark__sql_string(value) -%}
  '{{ value | replace('\\', '\\\\') | replace("'", "''") }}'
{%- endmacro %}
