{#- on-run-start gate (DuckDB): the warehouse file opens as a catalog named after it, and a catalog named like one
    of the warehouse's schemas (audit.duckdb -> `audit`) makes `audit.paired_metrics` name the catalog instead of
    the schema. Stops the build with a message before anything is built. The same list is
    biasmirror.paths.RESERVED_WAREHOUSE_NAMES (a test keeps the two equal); DuckDB reserves memory, system, temp.
    Returns a no-op statement. -#}
{% macro reserved_warehouse_names() %}
  {{ return(['audit', 'staging', 'intermediate', 'inference', 'reference', 'dq_failures', 'main', 'memory', 'system', 'temp']) }}
{% endmacro %}

{% macro check_warehouse_name() %}
  {%- if execute and target.type == 'duckdb' and (target.database | lower) in biasmirror.reserved_warehouse_names() -%}
    {{ exceptions.raise_compiler_error("The warehouse file opens as a database named '" ~ target.database ~ "', the "
        ~ "name of one of its schemas (or one DuckDB reserves): choose another file name (BIASMIRROR_WAREHOUSE), e.g. "
        ~ "biasmirror_" ~ target.database ~ ".duckdb.") }}
  {%- endif -%}
  select 1
{% endmacro %}
