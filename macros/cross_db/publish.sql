{#- Publishing the working copy (see macros/publish_warehouse.sql). On DuckDB: checkpoint, so that the working
    copy's file holds every change and its write-ahead log is empty, then call biasmirror_publish(), the function
    the biasmirror dbt plugin registers (biasmirror.warehouse.dbt_plugin), which copies the file beside the
    published one and renames it over it. Returns a description of what was published. A server database has no
    file to publish: the default does nothing. -#}
{% macro publish_working_copy() %}
  {{ return(adapter.dispatch('publish_working_copy', 'biasmirror')()) }}
{% endmacro %}

{% macro default__publish_working_copy() %}
  {{ return('') }}
{% endmacro %}

{% macro duckdb__publish_working_copy() %}
  {%- call statement('find_publish_function', fetch_result=True, auto_begin=False) -%}
    select count(*) from duckdb_functions() where function_name = 'biasmirror_publish'
  {%- endcall -%}
  {%- if load_result('find_publish_function').table.columns[0].values()[0] == 0 -%}
    {#- a profile without the biasmirror plugin writes its `path` directly: there is nothing to publish -#}
    {{ log("biasmirror: this profile does not load the biasmirror dbt plugin (profiles.yml `plugins:`); the build "
           ~ "wrote the profile's path directly and nothing was published", info=True) }}
    {{ return('') }}
  {%- endif -%}
  {#- outside any transaction: a checkpoint cannot run in one that has changes -#}
  {%- call statement('checkpoint_working_copy', auto_begin=False) -%}checkpoint{%- endcall -%}
  {%- call statement('publish_working_copy', fetch_result=True, auto_begin=False) -%}select biasmirror_publish(){%- endcall -%}
  {{ return(load_result('publish_working_copy').table.columns[0].values()[0]) }}
{% endmacro %}

{#- PostgreSQL: the build wrote the database itself, which readers query directly; a working copy and its
    publication are a DuckDB-file concept, so there is nothing to publish. -#}
{% macro postgres__publish_working_copy() %}
  {{ log("biasmirror: PostgreSQL target: the build wrote the database directly, nothing to publish "
         ~ "(publishing a working copy applies to DuckDB files only)", info=True) }}
  {{ return('') }}
{% endmacro %}
