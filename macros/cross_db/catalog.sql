{#- What the warehouse's catalog holds, and running several statements from a hook. -#}

{#- The inference tables that exist and their columns: {table name: [column names]}. DuckDB and PostgreSQL read
    information_schema; Spark has none (Databricks' Unity Catalog has one, its Hive metastore not): SHOW TABLES
    and the adapter's DESCRIBE. -#}
{% macro inference_table_columns() -%}
  {{ return(adapter.dispatch('inference_table_columns', 'biasmirror')()) }}
{%- endmacro %}
{% macro default__inference_table_columns() -%}
  {%- set existing = {} -%}
  {%- set found = run_query("select table_name, column_name from information_schema.columns where table_schema = 'inference' and table_catalog = current_database()") -%}
  {%- for row in found.rows -%}
    {%- do existing.setdefault(row[0], []).append(row[1]) -%}
  {%- endfor -%}
  {{ return(existing) }}
{%- endmacro %}
{% macro spark__inference_table_columns() -%}
  {%- set existing = {} -%}
  {%- do run_query("create schema if not exists inference") -%}
  {%- for row in run_query("show tables in inference").rows if not row[2] -%}
    {%- set relation = api.Relation.create(schema='inference', identifier=row[1], type='table') -%}
    {%- do existing.update({row[1]: adapter.get_columns_in_relation(relation) | map(attribute='name') | list}) -%}
  {%- endfor -%}
  {{ return(existing) }}
{%- endmacro %}

{#- Whether inference.<name> exists. -#}
{% macro inference_table_exists(name) -%}
  {{ return(adapter.dispatch('inference_table_exists', 'biasmirror')(name)) }}
{%- endmacro %}
{% macro default__inference_table_exists(name) -%}
  {%- set found = run_query("select count(*) from information_schema.tables where table_schema = 'inference' and table_name = "
                            ~ biasmirror.sql_string(name)) -%}
  {{ return(found.columns[0].values()[0] > 0) }}
{%- endmacro %}
{% macro spark__inference_table_exists(name) -%}
  {%- do run_query("create schema if not exists inference") -%}
  {{ return(run_query("show tables in inference like " ~ biasmirror.sql_string(name)).rows | length > 0) }}
{%- endmacro %}

{#- The SQL a hook runs for a list of statements ('' entries skipped). DuckDB and PostgreSQL run them as one
    script; Spark runs one statement per call, so all but the last run here and the hook runs the last. -#}
{% macro hook_sql(statements) -%}
  {{ return(adapter.dispatch('hook_sql', 'biasmirror')(statements | reject('equalto', '') | list)) }}
{%- endmacro %}
{% macro default__hook_sql(statements) -%}
  {{ return(statements | join(';\n')) }}
{%- endmacro %}
{% macro spark__hook_sql(statements) -%}
  {%- for statement in statements[:-1] -%}
    {%- do run_query(statement) -%}
  {%- endfor -%}
  {{ return(statements[-1] if statements else 'select 1') }}
{%- endmacro %}

{#- Whether the inference tables take DELETE: not Spark's Parquet tables (Delta tables would). -#}
{% macro supports_delete() -%}
  {{ return(adapter.dispatch('supports_delete', 'biasmirror')()) }}
{%- endmacro %}
{% macro default__supports_delete() -%}
  {{ return(true) }}
{%- endmacro %}
{% macro spark__supports_delete() -%}
  {{ return(false) }}
{%- endmacro %}

{#- on-run-start (Spark): with BIASMIRROR_SPARK_TABLES set to a folder, every table the project reads - the
    inference tables, and the data sets read from tables (var mimic_source / bordeaux_source: tables) - is
    registered as a Parquet table at <folder>/<schema>/<table>, with the columns its contract declares. Files
    already there are read (the Parquet export of biasmirror.warehouse.spark_tables); a missing folder makes an
    empty table that later writes fill. This is how Spark's local mode keeps tables between runs: its catalog
    lives in memory for one dbt invocation. A cluster whose metastore already has the tables leaves the variable
    unset. DuckDB and PostgreSQL hold their own tables: nothing to do. -#}
{% macro register_source_tables() -%}
  {{ return(adapter.dispatch('register_source_tables', 'biasmirror')()) }}
{%- endmacro %}
{% macro default__register_source_tables() -%}
  {{ return('select 1 as no_tables_to_register') }}
{%- endmacro %}
{% macro spark__register_source_tables() -%}
  {%- set root = env_var('BIASMIRROR_SPARK_TABLES', '') | trim -%}
  {%- if not execute or not root -%}{{ return('select 1 as no_tables_to_register') }}{%- endif -%}
  {%- set statements = [] -%}
  {%- set schemas = [] -%}
  {%- for src in graph.sources.values() if src.source_name == 'inference' or biasmirror.source_reads_tables(src.source_meta) -%}
    {%- if src.source_name == 'inference' -%}
      {%- set relation = 'inference.' ~ src.identifier -%}
    {%- else -%}
      {%- set relation = biasmirror.raw_table_relation(src) | replace('`', '') -%}
    {%- endif -%}
    {%- set schema, dot, table = relation.partition('.') -%}
    {%- if schema not in schemas -%}
      {%- do schemas.append(schema) -%}
      {%- do statements.append('create schema if not exists ' ~ schema) -%}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- for col in src.columns.values() -%}
      {%- do columns.append(adapter.quote(col.name) ~ ' ' ~ biasmirror.contract_type(col.data_type or 'varchar')) -%}
    {%- endfor -%}
    {%- do statements.append('create table if not exists ' ~ schema ~ '.' ~ table ~ ' (' ~ columns | join(', ')
                             ~ ') using parquet location ' ~ biasmirror.sql_string(root.rstrip('/') ~ '/' ~ schema ~ '/' ~ table)) -%}
  {%- endfor -%}
  {{ return(biasmirror.hook_sql(statements)) }}
{%- endmacro %}
