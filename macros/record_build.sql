{#- on-run-end hook: one row in inference.dbt_builds per build that built at least one model, with the vars
    every interval depends on (B, seed, confidence level) and the models it built, so that a report can say
    which settings produced the marts it shows. Portable SQL: a plain insert of literals. -#}
{% macro record_build(results) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set built = [] -%}
  {%- for result in results
        if result.node.resource_type == 'model' and result.status in ('success', 'pass') -%}
    {%- do built.append(result.node.name) -%}
  {%- endfor -%}
  {%- if built | length == 0 -%}{{ return('') }}{%- endif -%}
  {%- set fmt = '%Y-%m-%d %H:%M:%S' -%}
  {%- set finished = modules.datetime.datetime.now(modules.pytz.utc) -%}
  {%- set sql -%}
    insert into inference.dbt_builds (invocation_id, command, started_at, finished_at, dbt_version, models,
      bootstrap_resamples, bootstrap_seed, ci_level, implicit_bootstrap_resamples, min_stratum_pairs)
    values ('{{ invocation_id }}', '{{ flags.WHICH | replace("'", "") }}',
      cast('{{ run_started_at.strftime(fmt) }}' as timestamp), cast('{{ finished.strftime(fmt) }}' as timestamp),
      '{{ dbt_version }}', '{{ built | sort | join(",") }}',
      {{ var('bootstrap_resamples') | int }}, {{ var('bootstrap_seed') | int }}, {{ var('ci_level') | float }},
      {{ var('implicit_bootstrap_resamples') | int }}, {{ var('min_stratum_pairs') | int }})
  {%- endset -%}
  {{ return(sql) }}
{% endmacro %}
