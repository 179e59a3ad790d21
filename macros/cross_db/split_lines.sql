{#- One row per line of a text column: the relation's `id_columns`, `line` and `line_number` (from 1).
    Splitting on newlines lets section rules match header lines with a constant pattern, in one pass. -#}
{% macro split_lines(relation, id_columns, text_column) -%}
  {{ return(adapter.dispatch('split_lines', 'biasmirror')(relation, id_columns, text_column)) }}
{%- endmacro %}
{% macro duckdb__split_lines(relation, id_columns, text_column) -%}
  select {{ id_columns | join(', ') }}, unnest(lines) as line, unnest(range(1, len(lines) + 1)) as line_number
  from (select {{ id_columns | join(', ') }}, string_split({{ text_column }}, chr(10)) as lines from {{ relation }})
{%- endmacro %}
{% macro postgres__split_lines(relation, id_columns, text_column) -%}
  select {% for c in id_columns %}source_rows.{{ c }}, {% endfor %}lines.line, cast(lines.line_number as bigint) as line_number
  from {{ relation }} as source_rows
  cross join lateral unnest(string_to_array(source_rows.{{ text_column }}, chr(10))) with ordinality as lines (line, line_number)
{%- endmacro %}
{#- Spark: posexplode of the split (its pattern is a regular expression; a newline is itself). -#}
{% macro spark__split_lines(relation, id_columns, text_column) -%}
  select {{ id_columns | join(', ') }}, line, cast(position + 1 as bigint) as line_number
  from (
      select {{ id_columns | join(', ') }}, posexplode(split({{ text_column }}, chr(10))) as (position, line)
      from {{ relation }}
  ) as lines
{%- endmacro %}
