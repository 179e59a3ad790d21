{#- Seeds on Spark. dbt-spark's loader formats its values into the SQL with Python's % (apostrophes, backslashes
    such as the \b of a pattern, and empty cells come out wrong), and its column types are written as declared
    (varchar needs a length there). These take precedence for the spark adapter: every value is a literal
    escaped by sql_string, an empty cell is null, and the types go through contract_type. -#}
{% macro spark__create_csv_table(model, agate_table) %}
  {%- set column_override = model['config'].get('column_types', {}) -%}
  {%- set quote_seed_column = model['config'].get('quote_columns', None) -%}
  {%- set columns = [] -%}
  {%- for col_name in agate_table.column_names -%}
    {%- set type = biasmirror.contract_type(column_override.get(col_name, adapter.convert_type(agate_table, loop.index0))) -%}
    {%- do columns.append(adapter.quote_seed_column(col_name | string, quote_seed_column) ~ ' ' ~ type) -%}
  {%- endfor -%}
  {% set sql %}
    create table {{ this.render() }} ({{ columns | join(', ') }})
    {{ file_format_clause() }}
    {{ location_clause() }}
    {{ comment_clause() }}
  {% endset %}
  {% call statement('_') -%}
    {{ sql }}
  {%- endcall %}
  {{ return(sql) }}
{% endmacro %}

{% macro spark__load_csv_rows(model, agate_table) %}
  {%- set column_override = model['config'].get('column_types', {}) -%}
  {%- set types = [] -%}
  {%- for col_name in agate_table.column_names -%}
    {%- do types.append(biasmirror.contract_type(column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)))) -%}
  {%- endfor -%}
  {%- set statements = [] -%}
  {%- for chunk in agate_table.rows | batch(get_batch_size()) -%}
    {%- set rows = [] -%}
    {%- for row in chunk -%}
      {%- set values = [] -%}
      {%- for value in row -%}
        {%- if value is none -%}
          {%- do values.append('cast(null as ' ~ types[loop.index0] ~ ')') -%}
        {%- else -%}
          {%- do values.append('cast(' ~ biasmirror.sql_string(value | string) ~ ' as ' ~ types[loop.index0] ~ ')') -%}
        {%- endif -%}
      {%- endfor -%}
      {%- do rows.append('(' ~ values | join(', ') ~ ')') -%}
    {%- endfor -%}
    {%- set sql = 'insert into ' ~ this.render() ~ ' values ' ~ rows | join(',\n') -%}
    {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
    {%- do statements.append(sql) -%}
  {%- endfor -%}
  {{ return(statements[0] if statements else '') }}
{% endmacro %}

{#- Unit-test fixtures quote their texts with escape_single_quotes; dbt-spark's escapes the quote only, so a
    backslash in a fixture (the \b of a pattern) would be read as an escape. -#}
{% macro spark__escape_single_quotes(expression) -%}
  {{ expression | replace('\\', '\\\\') | replace("'", "\\'") }}
{%- endmacro %}
