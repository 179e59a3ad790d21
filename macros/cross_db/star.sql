{#- Every column of a relation but some: `select {{ star_except(ref('m'), ['a'], ['b']) }} from (... m.*, b ...)`.
    relation: the model whose columns the query's rows carry (read from the warehouse on engines without a star
    modifier); except: the columns to leave out; extra: columns the query added after the relation's (kept, in
    that order). DuckDB writes `* exclude (...)`; PostgreSQL lists the columns. -#}
{% macro star_except(relation, except, extra=[]) -%}
  {{ return(adapter.dispatch('star_except', 'biasmirror')(relation, except, extra)) }}
{%- endmacro %}
{% macro duckdb__star_except(relation, except, extra) -%}
  * exclude ({{ except | join(', ') }})
{%- endmacro %}
{% macro postgres__star_except(relation, except, extra) -%}
  {%- if not execute -%}{{ return('*') }}{%- endif -%}
  {#- in a unit test the ref is a CTE of fixture rows, whose columns are those of the model's table -#}
  {%- set name = (relation.identifier if relation.identifier is defined else relation | string) -%}
  {%- if name.startswith('__dbt__cte__') -%}
    {%- set found = run_query("select table_schema from information_schema.tables where table_name = "
                              ~ biasmirror.sql_string(name[12:]) ~ " and table_catalog = current_database()") -%}
    {%- if found.rows | length > 0 -%}
      {%- set relation = api.Relation.create(database=target.database, schema=found.rows[0][0], identifier=name[12:]) -%}
    {%- endif -%}
  {%- endif -%}
  {%- set kept = [] -%}
  {%- for column in adapter.get_columns_in_relation(relation) if column.name | lower not in (except | map('lower') | list) -%}
    {%- do kept.append(adapter.quote(column.name)) -%}
  {%- endfor -%}
  {%- if not kept -%}
    {{ exceptions.raise_compiler_error("star_except: " ~ relation ~ " has no columns in this warehouse: build it first") }}
  {%- endif -%}
  {{ (kept + extra) | join(', ') }}
{%- endmacro %}
{#- Spark 4 and Databricks write `* except (...)`. -#}
{% macro spark__star_except(relation, except, extra) -%}
  * except ({{ except | join(', ') }})
{%- endmacro %}
