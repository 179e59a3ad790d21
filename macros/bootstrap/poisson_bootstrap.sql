{#- Pair-resampling bootstrap, computed in SQL.

    Every resampling unit (a pair, a test record, a response) gets, in each replicate b, a Poisson(1)
    multiplicity drawn from a hash of (unit key, b): the Poisson bootstrap, the large-sample equivalent of
    drawing N units with replacement (Hanley & MacGibbon 2006; Chamandy et al. 2012). Unlike a multinomial
    draw it needs no global state, so it streams, and it is the same whatever the row order or thread count.

    Every metric of the project is a function of weighted counts per "cell" (e.g. direction x original level x
    counterfactual level). So units are first mapped to cells, and the O(B*N) pass only sums weights per
    (cell, replicate); metrics are then computed from the O(B*K) cell weights, for every stratum at once. -#}

{% macro bootstrap_config() %}
  {%- set n_boot = var('bootstrap_resamples') | int -%}
  {%- set level = var('ci_level') | float -%}
  {%- if n_boot < 1 -%}{{ exceptions.raise_compiler_error("var bootstrap_resamples must be >= 1, got " ~ n_boot) }}{%- endif -%}
  {%- if not (0 < level < 1) -%}{{ exceptions.raise_compiler_error("var ci_level must be in (0, 1), got " ~ level) }}{%- endif -%}
  {{ return({'n_boot': n_boot, 'seed': var('bootstrap_seed') | string, 'alpha': (1 - level) | round(12)}) }}
{% endmacro %}

{#- A unit's resampling key: the same unit id gets the same multiplicities in every model, setting and
    stratum, so that differences between models or settings can be bootstrapped as paired too. -#}
{% macro resample_key(unit_id_expr) -%}
  {{ biasmirror.hash64(biasmirror.sql_string(bootstrap_config().seed ~ '|') ~ " || cast(" ~ unit_id_expr ~ " as varchar)") }}
{%- endmacro %}

{#- Inverse CDF of Poisson(1) applied to a uniform number. Thresholds are computed here, not typed in. -#}
{% macro poisson_one_from_uniform(u) -%}
  {%- set ns = namespace(term=0.36787944117144233, cdf=0.0) -%}
  case
  {%- for k in range(0, 13) %}
    {%- set ns.cdf = ns.cdf + ns.term %}
    when {{ u }} < {{ ns.cdf }} then {{ k }}
    {%- set ns.term = ns.term / (k + 1) %}
  {%- endfor %}
    else 13
  end
{%- endmacro %}

{#- Multiplicity of the unit with key `unit_key` in replicate `replicate`. Hashing (key xor replicate)
    rather than hash(key, replicate) avoids the correlated draws that multi-argument hashes of small integers
    give (DESIGN.md section 3). -#}
{% macro bootstrap_weight(unit_key, replicate) -%}
  {{ biasmirror.poisson_one_from_uniform(biasmirror.uniform_from_hash(biasmirror.hash64(biasmirror.xor64(unit_key, replicate)))) }}
{%- endmacro %}

{#- Weighted cell counts for every replicate. `units` is a relation with one row per resampling unit and
    columns `unit_key` (from resample_key) and `cell_column`. Returns (cell_column, replicate, weight) with
    replicate = -1 holding the observed counts (the point estimate) and 0 .. B-1 the bootstrap replicates.
    n_boot: B, when a study sets its own (default: var bootstrap_resamples). -#}
{% macro bootstrap_cell_weights(units, cell_column='cell_id', n_boot=none) -%}
  {%- set cfg = biasmirror.bootstrap_config() -%}
  {%- set n_boot = cfg.n_boot if n_boot is none else n_boot | int -%}
  {%- if n_boot < 1 -%}{{ exceptions.raise_compiler_error("bootstrap_cell_weights: n_boot must be >= 1, got " ~ n_boot) }}{%- endif -%}
  select {{ cell_column }}, -1 as replicate, count(*) as weight
  from {{ units }}
  group by {{ cell_column }}
  union all
  select u.{{ cell_column }}, r.replicate, sum({{ biasmirror.bootstrap_weight('u.unit_key', 'r.replicate') }}) as weight
  from {{ units }} as u
  cross join {{ biasmirror.integer_series(n_boot, 'replicate') }} as r
  group by u.{{ cell_column }}, r.replicate
{%- endmacro %}

{#- Percentile interval bounds over the bootstrap replicates (replicate >= 0) of a metric column. -#}
{% macro percentile_ci_low(expr) -%}
  {{ biasmirror.quantile_cont(expr, bootstrap_config().alpha / 2) }}
{%- endmacro %}
{% macro percentile_ci_high(expr) -%}
  {{ biasmirror.quantile_cont(expr, 1 - bootstrap_config().alpha / 2) }}
{%- endmacro %}

{#- Point estimate and percentile interval of every metric, from a relation with one row per group and
    replicate (replicate -1 = observed data), one column per metric and a count column `n_column`.
    Returns one row per group and metric (long format, which BI tools and analysts filter easily). -#}
{% macro summarise_replicates(replicates, group_columns, metric_names, n_column, n_alias) -%}
  {%- set groups = group_columns | join(', ') -%}
  with metric_names as (
      select * from (values
          {%- for name in metric_names %}
          ({{ loop.index }}, '{{ name }}'){{ "," if not loop.last }}
          {%- endfor %}
      ) as names (metric_order, metric)
  ),

  long_format as (
      select
          {% for column in group_columns %}r.{{ column }}, {% endfor %}r.replicate, r.{{ n_column }} as n_units,
          metric_names.metric_order,
          metric_names.metric,
          case metric_names.metric
              {%- for name in metric_names %}
              when '{{ name }}' then r.{{ name }}
              {%- endfor %}
          end as value
      from {{ replicates }} as r
      cross join metric_names
  )

  select
      {{ groups }},
      metric,
      max(case when replicate = -1 then value end) as estimate,
      {{ biasmirror.percentile_ci_low('case when replicate >= 0 then value end') }} as ci_low,
      {{ biasmirror.percentile_ci_high('case when replicate >= 0 then value end') }} as ci_high,
      cast(max(case when replicate = -1 then n_units end) as bigint) as {{ n_alias }},
      count(case when replicate >= 0 and value is not null then 1 end) as n_boot,
      min(metric_order) as metric_order
  from long_format
  group by {{ groups }}, metric
{%- endmacro %}
