{#- Creates the `inference` schema and its tables from the column types declared in
    models/staging/inference/_inference__sources.yml (the single contract Python also reads), so that a fresh
    warehouse builds with no data loaded. Existing tables keep their rows; a column the contract gained since
    they were created is added (null in the old rows). -#}
{% macro create_inference_tables() %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set statements = ['create schema if not exists inference'] -%}
  {%- for src in graph.sources.values() if src.source_name == 'inference' -%}
    {%- set columns = [] -%}
    {%- for col in src.columns.values() -%}
      {%- do columns.append(adapter.quote(col.name) ~ ' ' ~ col.data_type) -%}
    {%- endfor -%}
    {%- do statements.append('create table if not exists ' ~ src.schema ~ '.' ~ src.identifier ~ ' (' ~ columns | join(', ') ~ ')') -%}
    {%- for column in columns -%}
      {%- do statements.append('alter table ' ~ src.schema ~ '.' ~ src.identifier ~ ' add column if not exists ' ~ column) -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(statements | join(';\n')) }}
{% endmacro %}
