{#- on-run-end: publish the working copy as the file readers open, only when every node of the run succeeded.

    A run with an error, a failed test or a skipped node publishes nothing: readers keep the last published
    build (a failed audit gate is the exception: the marts are sound and the model crossed a line, so they are
    published for the report to show it, and dbt still exits with the failure; macro is_failed_audit_gate), and the working copy keeps what was built so a rerun can finish it. Only `dbt build` publishes:
    `dbt run`, `dbt test`, `dbt seed` leave their work in the working copy (a `dbt test` after an import would
    otherwise publish new pairs with no marts built for them). With var publish_warehouse false, a successful
    build stays in the working copy too. Before publishing, the data-set
    folders this build was asked to remember (var remember_dataset_roots, set by `biasmirror build --mimic-root
    / --bordeaux-root`) are recorded in inference.dataset_roots, so a folder is only ever recorded by a build
    that read it successfully. -#}
{% macro publish_warehouse(results) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set unfinished = [] -%}
  {%- for result in results if result.status in ('error', 'fail', 'runtime error', 'skipped') and not biasmirror.is_failed_audit_gate(result) -%}
    {%- do unfinished.append(result.node.name ~ ' (' ~ result.status ~ ')') -%}
  {%- endfor -%}
  {%- if unfinished -%}
    {{ log("biasmirror: the warehouse was NOT published (" ~ unfinished | length ~ " node(s) did not succeed: "
           ~ (unfinished[:5] | join(', ')) ~ (', ...' if unfinished | length > 5 else '')
           ~ "); readers keep the last published build.", info=True) }}
    {{ return('') }}
  {%- endif -%}
  {%- do biasmirror.remember_dataset_roots() -%}
  {%- if flags.WHICH != 'build' -%}
    {{ log("biasmirror: `dbt " ~ flags.WHICH ~ "` wrote the working copy only; only `dbt build` (or `biasmirror build`) "
           ~ "publishes it, once every model and test succeeded", info=True) }}
    {{ return('') }}
  {%- endif -%}
  {%- if not biasmirror.publishes_build() -%}
    {{ log("biasmirror: built in the working copy, not published (var publish_warehouse is false)", info=True) }}
    {{ return('') }}
  {%- endif -%}
  {%- set published = biasmirror.publish_working_copy() -%}
  {%- if published -%}
    {{ log("biasmirror: published " ~ published, info=True) }}
  {%- endif -%}
  {{ return('') }}
{% endmacro %}

{#- Records the folder of each data set listed in var remember_dataset_roots (e.g. ['mimic']) from its root var
    (mimic_root, bordeaux_root), replacing the folder recorded before. -#}
{% macro remember_dataset_roots() %}
  {%- set datasets = var('remember_dataset_roots', []) -%}
  {%- if datasets is string -%}{%- set datasets = [datasets] -%}{%- endif -%}
  {%- if not datasets -%}{{ return('') }}{%- endif -%}
  {%- set root_vars = {} -%}
  {%- for src in graph.sources.values() if src.source_meta.dataset and src.source_meta.root_var -%}
    {%- do root_vars.update({src.source_meta.dataset: src.source_meta.root_var}) -%}
  {%- endfor -%}
  {%- set now = modules.datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M:%S') -%}
  {%- for dataset in datasets -%}
    {%- if dataset not in root_vars -%}
      {{ exceptions.raise_compiler_error("remember_dataset_roots: unknown data set " ~ dataset ~ "; file-based data sets: " ~ root_vars.keys() | list | join(', ')) }}
    {%- endif -%}
    {%- set root = var(root_vars[dataset], '') | string | trim -%}
    {%- if root -%}
      {#- its own transaction, committed before the publish (hooks run outside dbt's transactions) -#}
      {%- call statement('remember_root_' ~ dataset, auto_begin=False) -%}
        begin;
        delete from inference.dataset_roots where dataset = {{ biasmirror.sql_string(dataset) }};
        insert into inference.dataset_roots (dataset, root, registered_at)
        values ({{ biasmirror.sql_string(dataset) }}, {{ biasmirror.sql_string(root) }}, cast('{{ now }}' as timestamp));
        commit
      {%- endcall -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return('') }}
{% endmacro %}

{#- True when this invocation publishes the working copy if every node succeeds: a `dbt build` with var
    publish_warehouse true (the default). record_build stores it in inference.dbt_builds.published. -#}
{% macro publishes_build() %}
  {%- set publish = var('publish_warehouse', true) -%}
  {%- if publish is string -%}{%- set publish = publish | lower not in ('false', '0', 'no', 'off') -%}{%- endif -%}
  {{ return(flags.WHICH == 'build' and publish) }}
{% endmacro %}
