{#- Creates the `inference` schema and its tables from the column types declared in
    models/staging/inference/_inference__sources.yml (the single contract Python also reads), so that a fresh
    warehouse builds with no data loaded. A table made by an older version gets the columns the contract has
    added since (appended at its end, null in existing rows) and loses the columns the contract retires (a table's
    `meta: retired_columns`, e.g. llm_failures.body_excerpt, which quoted answer bodies); nothing else is dropped
    or retyped. The Python writers
    apply the same rules (biasmirror.warehouse.contract.ensure_inference_tables). -#}
{% macro create_inference_tables() %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set existing = biasmirror.inference_table_columns() -%}
  {%- set statements = ['create schema if not exists inference'] -%}
  {%- for src in graph.sources.values() if src.source_name == 'inference' -%}
    {%- if src.identifier not in existing -%}
      {%- set columns = [] -%}
      {%- for col in src.columns.values() -%}
        {%- do columns.append(adapter.quote(col.name) ~ ' ' ~ biasmirror.contract_type(col.data_type)) -%}
      {%- endfor -%}
      {%- do statements.append('create table if not exists ' ~ src.schema ~ '.' ~ src.identifier ~ ' (' ~ columns | join(', ') ~ ')') -%}
    {%- else -%}
      {%- for col in src.columns.values() if col.name not in existing[src.identifier] -%}
        {%- do statements.append('alter table ' ~ src.schema ~ '.' ~ src.identifier ~ ' add column if not exists ' ~ adapter.quote(col.name) ~ ' ' ~ biasmirror.contract_type(col.data_type)) -%}
      {%- endfor -%}
      {%- for name in (src.meta.retired_columns or []) if name in existing[src.identifier] -%}
        {%- do statements.append('alter table ' ~ src.schema ~ '.' ~ src.identifier ~ ' drop column if exists ' ~ adapter.quote(name)) -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(biasmirror.hook_sql(statements)) }}
{% endmacro %}
