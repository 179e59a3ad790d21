{#- on-run-end hook: a successful `dbt build` or `dbt run` records itself in inference.dbt_builds - when it ran,
    the effective value of every project var (var_rules) and the models it built - which also confirms the raw
    row counts its pre-build check recorded (inference.raw_source_counts, the baseline of the next build's
    guard), and the report's provenance footer reads B, seed and ci level from it. A build with any error, failed test (other than an audit gate: is_failed_audit_gate) or skipped node records nothing and removes those counts. Other
    commands (test, seed, compile, ...) record nothing. Column published says whether the build is about to
    publish (biasmirror.publishes_build); a build whose publish then never completes is marked not published
    by the next dbt command (biasmirror.build_record.reconcile_build_records, run by the dbt plugin).
    Returns the statements to run. -#}
{% macro record_build(results) %}
  {%- if not execute or flags.WHICH not in ('build', 'run') -%}{{ return('select 1 as build_not_recorded') }}{%- endif -%}
  {%- set failed = [] -%}
  {%- set models = [] -%}
  {%- for result in results -%}
    {%- set status = result.status | string | lower -%}
    {%- if status in ('error', 'fail', 'runtime error', 'skipped', 'partial success') and not biasmirror.is_failed_audit_gate(result) -%}
      {%- do failed.append(result.node.unique_id) -%}
    {%- elif result.node.resource_type == 'model' -%}
      {%- do models.append(result.node.name) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if failed -%}
    {#- (raw row counts are recorded for raw files only, which engines without DELETE do not read) -#}
    {{ return("delete from inference.raw_source_counts where invocation_id = " ~ biasmirror.sql_string(invocation_id)
              if biasmirror.supports_delete() else 'select 1 as build_not_recorded') }}
  {%- endif -%}
  {%- set effective = {} -%}
  {%- for name in biasmirror.var_rules().keys() -%}
    {%- set value = var(name, none) -%}
    {%- if value is not none -%}{%- do effective.update({name: value}) -%}{%- endif -%}
  {%- endfor -%}
  {%- set started = run_started_at.strftime('%Y-%m-%d %H:%M:%S') -%}
  {%- set finished = modules.datetime.datetime.now(modules.pytz.utc).strftime('%Y-%m-%d %H:%M:%S.%f') -%}
  {{ return(biasmirror.hook_sql(["insert into inference.dbt_builds (invocation_id, command, dbt_version, started_at, finished_at, vars, models, published) values ("
      ~ biasmirror.sql_string(invocation_id) ~ ", " ~ biasmirror.sql_string(flags.WHICH) ~ ", " ~ biasmirror.sql_string(dbt_version) ~ ", "
      ~ "cast(" ~ biasmirror.sql_string(started) ~ " as timestamp), cast(" ~ biasmirror.sql_string(finished) ~ " as timestamp), "
      ~ biasmirror.sql_string(effective | tojson) ~ ", " ~ biasmirror.sql_string(models | sort | tojson) ~ ", "
      ~ ('true' if biasmirror.publishes_build() else 'false') ~ ")",
      biasmirror.record_audit_history(models)])) }}
{% endmacro %}

{#- The audit's history: a successful build that rebuilt the headline metrics and their fingerprints appends
    them to inference.audit_history (an append-only table in the inference schema, so that no rebuild and no
    --full-refresh rewrites it; `forget` removes a data set's rows). '' when this build did not rebuild both. -#}
{% macro record_audit_history(models) %}
  {%- if 'paired_metrics' not in models or 'int_audit_fingerprints' not in models -%}{{ return('') }}{%- endif -%}
  {%- set metrics = graph.nodes['model.biasmirror.paired_metrics'] -%}
  {%- set fingerprints = graph.nodes['model.biasmirror.int_audit_fingerprints'] -%}
  {%- set started = run_started_at.strftime('%Y-%m-%d %H:%M:%S.%f') -%}
  {%- set columns = ['estimate', 'ci_low', 'ci_high', 'p_value', 'q_value', 'mde', 'n_pairs', 'n_changed', 'n_boot',
                     'is_sparse', 'metric_order'] -%}
  {{ return("insert into inference.audit_history (invocation_id, built_at, dataset, model, generator, setting, metric, "
      ~ columns | join(', ') ~ ", data_fingerprint, model_fingerprint)\n"
      ~ "select " ~ biasmirror.sql_string(invocation_id) ~ ", cast(" ~ biasmirror.sql_string(started) ~ " as timestamp), "
      ~ "m.dataset, m.model, m.generator, m.setting, m.metric, m." ~ columns | join(', m.')
      ~ ", f.data_fingerprint, f.model_fingerprint\n"
      ~ "from " ~ metrics.schema ~ "." ~ metrics.alias ~ " as m\n"
      ~ "left join " ~ fingerprints.schema ~ "." ~ fingerprints.alias ~ " as f\n"
      ~ "  on f.dataset = m.dataset and f.model = m.model and f.generator = m.generator and f.setting = m.setting\n"
      ~ "where m.stratum_name = 'overall'") }}
{% endmacro %}
