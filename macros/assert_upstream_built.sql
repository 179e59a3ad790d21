{#- on-run-start: a partial build (e.g. the scheduled `--select "stg_inference__imported_pairs+" ...`) reads the
    models it does not rebuild from the warehouse. On a fresh warehouse they do not exist yet: stop before
    building anything, naming them and the full build to run once first. -#}
{% macro assert_upstream_built() %}
  {%- if not execute or flags.WHICH not in ('build', 'run') -%}{{ return('') }}{%- endif -%}
  {%- set selected = selected_resources | list -%}
  {%- set missing = [] -%}
  {%- set seen = [] -%}
  {%- set queue = [] -%}
  {%- for unique_id in selected if unique_id in graph.nodes -%}
    {%- for parent_id in graph.nodes[unique_id].depends_on.nodes if parent_id not in selected -%}
      {%- do queue.append(parent_id) -%}
    {%- endfor -%}
  {%- endfor -%}
  {#- a breadth-first walk: an ephemeral parent is not stored, so its own parents must exist -#}
  {%- for parent_id in queue if parent_id not in seen and parent_id in graph.nodes -%}
    {%- do seen.append(parent_id) -%}
    {%- set parent = graph.nodes[parent_id] -%}
    {%- if parent.resource_type in ('model', 'seed', 'snapshot') -%}
      {%- if parent.config.materialized == 'ephemeral' -%}
        {%- for grandparent_id in parent.depends_on.nodes if grandparent_id not in selected -%}
          {%- do queue.append(grandparent_id) -%}
        {%- endfor -%}
      {%- elif adapter.get_relation(database=parent.database, schema=parent.schema, identifier=parent.alias) is none -%}
        {%- do missing.append(parent.schema ~ '.' ~ parent.alias) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if missing -%}
    {{ exceptions.raise_compiler_error(
        "This selection reads " ~ missing | length ~ " model(s) it does not build and that this warehouse does not "
        ~ "have yet: " ~ (missing | sort | join(', ')) ~ ". Nothing was built. Run a full build once first "
        ~ "(`biasmirror build`, or `dbt build --project-dir . --profiles-dir .` without --select); after that, "
        ~ "scheduled runs can rebuild only what an import changes.") }}
  {%- endif -%}
  {{ return('') }}
{% endmacro %}
