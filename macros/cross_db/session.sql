{#- Settings of the connection a model is built on (a pre-hook of every model, dbt_project.yml). dbt skips a hook
    that renders empty: DuckDB needs none. PostgreSQL: no JIT compilation. Its cost model sends the bootstrap
    models' large expressions (the Poisson draws' rejection steps) to LLVM, whose compilation takes minutes for a
    query that runs in a second. -#}
{% macro model_session_settings() -%}
  {{ return(adapter.dispatch('model_session_settings', 'biasmirror')()) }}
{%- endmacro %}
{% macro duckdb__model_session_settings() -%}
{%- endmacro %}
{% macro default__model_session_settings() -%}
{%- endmacro %}
{% macro postgres__model_session_settings() -%}
  set jit = off
{%- endmacro %}

{#- The hint that a CTE read several times is computed once (`name as materialized (...)`): DuckDB and PostgreSQL
    take it; Spark has no such hint (its optimizer decides, and reuses exchanges it can share). -#}
{% macro cte_materialized() -%}
  {{ return(adapter.dispatch('cte_materialized', 'biasmirror')()) }}
{%- endmacro %}
{% macro default__cte_materialized() -%}
  {{ return('materialized') }}
{%- endmacro %}
{% macro spark__cte_materialized() -%}
  {{ return('') }}
{%- endmacro %}
