{#- Creates the `inference` schema and its tables from the column types declared in
    models/staging/inference/_inference__sources.yml (the single contract Python also reads), so that a fresh
    warehouse builds with no data loaded. Existing tables are left untouched. -#}
{% macro create_inference_tables() %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set statements = ['create schema if not exists inference'] -%}
  {%- for src in graph.sources.values() if src.source_name == 'inference' -%}
    {%- set columns = [] -%}
    {%- for col in src.columns.values() -%}
      {%- do columns.append(adapter.quote(col.name) ~ ' ' ~ col.data_type) -%}
    {%- endfor -%}
    {%- do statements.append('create table if not exists ' ~ src.schema ~ '.' ~ src.identifier ~ ' (' ~ columns | join(', ') ~ ')') -%}
  {%- endfor -%}
  {{ return(statements | join(';\n')) }}
{% endmacro %}
