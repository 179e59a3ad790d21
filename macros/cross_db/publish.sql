{#- Publishing the working copy (see macros/publish_warehouse.sql). On DuckDB: checkpoint, so that the working
    copy's file holds every change and its write-ahead log is empty, then call biasmirror_publish(path), the
    function the biasmirror dbt plugin registers (biasmirror.warehouse.dbt_plugin), which copies the file beside the
    published one (or takes the compacted copy at `path`, written here by COPY FROM DATABASE when publish_compacts
    says so) and renames it over it. Returns a description of what was published. A server database has no file
    to publish: the default does nothing. -#}
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
  {%- set compact = biasmirror.publish_compacts() -%}
  {%- if not compact -%}
    {%- call statement('publish_working_copy', fetch_result=True, auto_begin=False) -%}select biasmirror_publish(''){%- endcall -%}
    {{ return(load_result('publish_working_copy').table.columns[0].values()[0]) }}
  {%- endif -%}
  {#- a compacted copy: a fresh file holding only live rows (no free block of the working copy, so no byte of a
      deleted row), written beside the published file, then checked and renamed over it like a byte copy -#}
  {{ log("biasmirror: publishing a compacted copy (" ~ compact ~ ")", info=True) }}
  {%- call statement('publish_target', fetch_result=True, auto_begin=False) -%}select biasmirror_publish_target(), current_database(){%- endcall -%}
  {%- set row = load_result('publish_target').table.rows[0] -%}
  {%- call statement('attach_compacted', auto_begin=False) -%}attach {{ biasmirror.sql_string(row[0]) }} as biasmirror_compacted{%- endcall -%}
  {%- call statement('copy_compacted', auto_begin=False) -%}copy from database {{ adapter.quote(row[1]) }} to biasmirror_compacted{%- endcall -%}
  {%- call statement('detach_compacted', auto_begin=False) -%}detach biasmirror_compacted{%- endcall -%}
  {%- call statement('publish_working_copy', fetch_result=True, auto_begin=False) -%}select biasmirror_publish({{ biasmirror.sql_string(row[0]) }}){%- endcall -%}
  {{ return(load_result('publish_working_copy').table.columns[0].values()[0]) }}
{% endmacro %}

{#- Why this publish must be compacted ('' when a byte copy will do): the build asks for it (var publish_compact:
    `biasmirror build --compact`, e.g. after patients were removed from an extract) or lets a raw file shrink (var
    allow_raw_shrink: rows were removed on purpose), a `forget` finished since the last published
    build (the working copy's free blocks still hold the forgotten rows' bytes, and a byte copy would carry them to
    every reader), or free blocks are more than var publish_compact_free_share of the working copy (dead space,
    e.g. from killed builds, that every byte copy would carry). -#}
{% macro publish_compacts() %}
  {%- call statement('publish_compacts', fetch_result=True, auto_begin=False) -%}
    select
      (select count(*) from inference.runs
        where kind = 'forget' and status = 'finished'
          and finished_at > (select coalesce(max(finished_at), timestamp '1970-01-01') from inference.dbt_builds
                             where coalesce(published, true) and invocation_id <> {{ biasmirror.sql_string(invocation_id) }})),
      (select free_blocks / greatest(total_blocks, 1) from pragma_database_size() where database_name = current_database())
  {%- endcall -%}
  {%- set row = load_result('publish_compacts').table.rows[0] -%}
  {%- set limit = var('publish_compact_free_share', 0.75) | float -%}
  {%- if biasmirror.as_boolean(var('publish_compact', false)) -%}
    {{ return("asked for (var publish_compact)") }}
  {%- elif biasmirror.as_boolean(var('allow_raw_shrink', false)) -%}
    {{ return("raw files were allowed to shrink (var allow_raw_shrink): removed rows must not stay in free blocks") }}
  {%- elif row[0] | int > 0 -%}
    {{ return(row[0] ~ " forget run(s) since the last published build") }}
  {%- elif row[1] is not none and row[1] | float > limit -%}
    {{ return("free blocks " ~ ((row[1] | float) * 100) | round(0) ~ "% of the working copy, over " ~ (limit * 100) | round(0) ~ "%") }}
  {%- endif -%}
  {{ return('') }}
{% endmacro %}

{#- PostgreSQL: the build wrote the database itself, which readers query directly; a working copy and its
    publication are a DuckDB-file concept, so there is nothing to publish. -#}
{% macro postgres__publish_working_copy() %}
  {{ log("biasmirror: PostgreSQL target: the build wrote the database directly, nothing to publish "
         ~ "(publishing a working copy applies to DuckDB files only)", info=True) }}
  {{ return('') }}
{% endmacro %}
