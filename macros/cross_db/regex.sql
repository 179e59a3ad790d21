{#- Regular expressions (RE2 syntax on DuckDB, POSIX advanced regular expressions on PostgreSQL: the patterns the
    project writes use the common subset). -#}
{% macro regex_matches(expr, pattern) -%}
  {{ return(adapter.dispatch('regex_matches', 'biasmirror')(expr, pattern)) }}
{%- endmacro %}
{% macro duckdb__regex_matches(expr, pattern) -%}
  regexp_matches({{ expr }}, {{ pattern }})
{%- endmacro %}
{#- PostgreSQL: RE2's word boundary \b is \y there (\b is a backspace): patterns are translated as they are
    used, so that seeds and contracts keep one spelling. -#}
{% macro postgres_pattern(pattern) -%}
  replace({{ pattern }}, '\b', '\y')
{%- endmacro %}
{% macro postgres__regex_matches(expr, pattern) -%}
  (({{ expr }}) ~ {{ biasmirror.postgres_pattern(pattern) }})
{%- endmacro %}

{% macro regex_extract(expr, pattern, group=0) -%}
  {{ return(adapter.dispatch('regex_extract', 'biasmirror')(expr, pattern, group)) }}
{%- endmacro %}
{% macro duckdb__regex_extract(expr, pattern, group) -%}
  nullif(regexp_extract({{ expr }}, {{ pattern }}, {{ group }}), '')
{%- endmacro %}
{#- group 0 (the whole match) is the first group of the pattern wrapped in parentheses -#}
{% macro postgres__regex_extract(expr, pattern, group) -%}
  {%- if group | int == 0 -%}
  nullif((regexp_match({{ expr }}, '(' || {{ biasmirror.postgres_pattern(pattern) }} || ')'))[1], '')
  {%- else -%}
  nullif((regexp_match({{ expr }}, {{ biasmirror.postgres_pattern(pattern) }}))[{{ group }}], '')
  {%- endif -%}
{%- endmacro %}

{#- Escape regular-expression metacharacters so that a text is matched literally. -#}
{% macro regex_escape(expr) -%}
  {{ return(adapter.dispatch('regex_escape', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__regex_escape(expr) -%}
  regexp_escape({{ expr }})
{%- endmacro %}
{% macro postgres__regex_escape(expr) -%}
  regexp_replace({{ expr }}, '([^[:alnum:][:space:]_])', '\\\1', 'g')
{%- endmacro %}
{#- Spark: Java regular expressions (\b is a word boundary, \pL a letter, as in RE2). Spark reads backslashes in
    string literals as C escapes ('\s' is 's'): a pattern written as a literal has them doubled (spark_literal). -#}
{% macro spark_literal(expr) -%}
  {%- if expr is string and expr | length > 1 and expr.startswith("'") and expr.endswith("'") -%}
    {{- expr | replace('\\', '\\\\') -}}
  {%- else -%}
    {{- expr -}}
  {%- endif -%}
{%- endmacro %}
{% macro spark__regex_matches(expr, pattern) -%}
  regexp({{ expr }}, {{ biasmirror.spark_literal(pattern) }})
{%- endmacro %}
{% macro spark__regex_extract(expr, pattern, group) -%}
  nullif(regexp_extract({{ expr }}, {{ biasmirror.spark_literal(pattern) }}, {{ group }}), '')
{%- endmacro %}
{% macro spark__regex_escape(expr) -%}
  regexp_replace({{ expr }}, '([^\\p{Alnum}\\s_])', '\\\\$1')
{%- endmacro %}
