{#- Pair-resampling bootstrap, computed in SQL.

    Every resampling unit (a pair, a test record, a response) gets, in each replicate b, a Poisson(1)
    multiplicity: the Poisson bootstrap, the large-sample equivalent of drawing N units with replacement
    (Hanley & MacGibbon 2006; Chamandy et al. 2012). Draws come from hashes of stable keys and the replicate
    number, so they are the same whatever the row order or thread count.

    Every metric of the project is a function of weighted counts per "cell" (e.g. group x stratum x direction x
    level change for the paired metrics). So units are mapped to cells, cells get their replicate weights
    (bootstrap_cell_weights: one exact Poisson(n) draw per group of n interchangeable units), and metrics are
    computed from the O(B x K) cell weights. -#}

{% macro bootstrap_config() %}
  {%- set n_boot = var('bootstrap_resamples') | int -%}
  {%- set level = var('ci_level') | float -%}
  {#- at parse time (execute false) a bad value is left to validate_vars, which names it as given -#}
  {%- if execute and n_boot < 1 -%}{{ exceptions.raise_compiler_error("var bootstrap_resamples must be >= 1, got " ~ n_boot) }}{%- endif -%}
  {%- if execute and not (0 < level < 1) -%}{{ exceptions.raise_compiler_error("var ci_level must be in (0, 1), got " ~ level) }}{%- endif -%}
  {{ return({'n_boot': n_boot, 'seed': var('bootstrap_seed') | string, 'alpha': (1 - level) | round(12)}) }}
{% endmacro %}

{#- A unit's resampling key: the same unit id gets the same multiplicities in every model and setting (within
    a stratum, see bootstrap_cell_weights), so that differences between them can be bootstrapped as paired. -#}
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
    give (docs/bootstrap.md, "Hashing pitfalls"). -#}
{% macro bootstrap_weight(unit_key, replicate) -%}
  {{ biasmirror.poisson_one_from_uniform(biasmirror.uniform_from_hash(biasmirror.hash64(biasmirror.xor64(unit_key, replicate)))) }}
{%- endmacro %}

{#- Weighted cell counts for every replicate. `units` is a relation with one row per (resampling unit, cell):
    the unit is identified by `unit_columns` (default: unit_key, from resample_key), its cell by `cell_column`
    (an integer); a unit may sit in several cells (one per model and setting, say), and in one cell more than
    once. Returns (cell_column, replicate, weight) with replicate = -1 holding the observed counts (the point
    estimate) and 0 .. B-1 the bootstrap replicates; weights are integers.

    Units whose lists of cells are equal ("joint cells") are exchangeable, and the sum of n independent
    Poisson(1) multiplicities is Poisson(n); so each joint cell gets one exact Poisson(n) draw per replicate
    (macros/cross_db/poisson_draws.sql), shared by every cell it feeds. That is the same distribution as one
    Poisson(1) draw per unit, keeps a unit's multiplicity identical across the cells (models, settings) of the
    relation, and costs O(B x joint cells) instead of O(B x N).

    A relation whose cells fall into separately analysed subsets (the strata of the paired metrics, the terms
    of the term associations) can resample each subset on its own: add the subset's columns to unit_columns,
    e.g. ['unit_key', 'stratum_name', 'stratum_value']. Each subset is then an exact bootstrap of its own units,
    paired across the models and settings inside it, with independent draws for different subsets; and joint
    cells stay few (they only need to tell apart the units of one subset), which is what makes the paired-metric
    bootstrap cheap.
    n_boot: B, when a study sets its own (default: var bootstrap_resamples). -#}
{% macro bootstrap_cell_weights(units, cell_column='cell_id', n_boot=none, unit_columns=['unit_key']) -%}
  {%- set cfg = biasmirror.bootstrap_config() -%}
  {%- set n_boot = cfg.n_boot if n_boot is none else n_boot | int -%}
  {%- if execute and n_boot < 1 -%}{{ exceptions.raise_compiler_error("bootstrap_cell_weights: n_boot must be >= 1, got " ~ n_boot) }}{%- endif -%}
  {%- set unit = unit_columns | join(', ') -%}
  with bootstrap_unit_signatures as (
      select {{ unit }}, {{ biasmirror.sorted_list_agg(cell_column) }} as signature
      from {{ units }}
      group by {{ unit }}
  ),
  bootstrap_joint_cells as (
      select
          signature,
          row_number() over (order by signature) as joint_id,
          {{ biasmirror.resample_key('signature') }} as joint_key,
          n_units
      from (select signature, count(*) as n_units from bootstrap_unit_signatures group by signature) as sizes
  ),
  bootstrap_joint_members as (
      select joint_id, cell, cast(count(*) as integer) as multiplicity
      from (select joint_id, {{ biasmirror.unnest_list('signature') }} as cell from bootstrap_joint_cells) as members
      group by joint_id, cell
  ),
  bootstrap_joint_draws as (
      {{ biasmirror.poisson_draws('bootstrap_joint_cells', n_boot) | indent(6) }}
  )

  -- observed counts, from the joint cells (reading `units` once): n units x their multiplicity in the cell
  select members.cell as {{ cell_column }}, -1 as replicate, cast(sum(joint_cells.n_units * members.multiplicity) as integer) as weight
  from bootstrap_joint_cells as joint_cells
  inner join bootstrap_joint_members as members using (joint_id)
  group by members.cell

  union all

  -- integer weights: DuckDB sums integers far faster than the 128-bit sums of bigints
  select members.cell as {{ cell_column }}, draws.replicate, cast(sum(cast(draws.weight as integer) * members.multiplicity) as integer) as weight
  from bootstrap_joint_draws as draws
  inner join bootstrap_joint_members as members using (joint_id)
  group by members.cell, draws.replicate
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
