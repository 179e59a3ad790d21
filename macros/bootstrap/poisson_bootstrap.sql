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
  {%- set unit = var('bootstrap_unit', 'patient') | string -%}
  {%- if execute and unit not in ('patient', 'pair') -%}{{ exceptions.raise_compiler_error("var bootstrap_unit must be 'patient' or 'pair', got '" ~ unit ~ "'") }}{%- endif -%}
  {{ return({'n_boot': n_boot, 'seed': var('bootstrap_seed') | string, 'alpha': (1 - level) | round(12), 'unit': unit}) }}
{% endmacro %}

{#- A unit's resampling key (a 64-bit hash of the seed and the unit's id): it identifies the unit wherever it
    appears (a patient in each of their pairs, a pair in every model and setting), so that a unit keeps one
    multiplicity over everything that is resampled together. -#}
{% macro resample_key(unit_id_expr) -%}
  {{ biasmirror.hash64(biasmirror.sql_string(bootstrap_config().seed ~ '|') ~ " || cast(" ~ unit_id_expr ~ " as " ~ biasmirror.type_text() ~ ")") }}
{%- endmacro %}

{#- The resampling unit of a pair (or test record): with var bootstrap_unit = 'patient' (the default) the
    patient, when the pair's patient is known, so that all pairs of a patient are resampled together (a cluster
    bootstrap: a patient's visits are not independent); otherwise the pair itself. Returns expressions for
    unit_is_pair (true when the unit is the pair alone) and unit_key. -#}
{% macro resampling_unit(dataset_expr, pair_id_expr, patient_id_expr) -%}
  {%- set by_patient = bootstrap_config().unit == 'patient' -%}
  {%- set is_pair = ('(' ~ patient_id_expr ~ ' is null)') if by_patient else 'true' -%}
  {%- set unit_id = dataset_expr ~ " || '|' || " ~ (("case when " ~ patient_id_expr ~ " is null then 'pair|' || " ~ pair_id_expr
                     ~ " else 'patient|' || " ~ patient_id_expr ~ " end") if by_patient else ("'pair|' || " ~ pair_id_expr)) -%}
  {{ return({'unit_is_pair': is_pair, 'unit_key': biasmirror.resample_key(unit_id)}) }}
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
    (an integer); a unit may sit in several cells (a patient with several pairs, a pair in several models), and in
    one cell more than once. Returns (cell_column, replicate, weight) with replicate = -1 holding the observed
    counts (the point estimate) and 0 .. B-1 the bootstrap replicates; weights are integers.

    Units whose multisets of cells are equal ("joint cells", e.g. every pair of one group with the same level
    change, or every patient with the same changes in their visits) are exchangeable, and the sum of n
    independent Poisson(1) multiplicities is Poisson(n): so each joint cell gets one exact Poisson(n) draw per
    replicate (macros/cross_db/poisson_draws.sql), shared by every cell it feeds. That is the same distribution
    as one Poisson(1) draw per unit and costs O(B x joint cells) instead of O(B x N).

    A relation whose cells fall into separately analysed subsets (one group's strata, terms, models) resamples
    each subset on its own when the subset's columns are added to unit_columns, e.g. ['unit_key', 'group_id',
    'stratum_id']: each subset is then an exact bootstrap of its own units, with independent draws for different
    subsets, and joint cells stay few (a subset of one group has at most as many joint cells as distinct
    multisets of its units). Resampling a unit across subsets with one multiplicity (paired comparisons) is done
    per comparison instead (int_comparison_joint_cells): a joint cell spanning many groups approaches one cell per
    unit when the groups disagree unit by unit.

    single_unit_column: a boolean column, true on rows whose unit has exactly this one row in its subset (a pair
    resampled on its own): those rows are counted per cell directly, without building signatures.
    single_counts: instead, a relation (cell_column, n_single) with those counts already made (then `units` need
    only hold the other rows).
    salt: text mixed into every joint cell's key, so that two models with the same cell numbers draw independently.
    n_boot: B, when a study sets its own (default: var bootstrap_resamples). -#}
{% macro bootstrap_cell_weights(units, cell_column='cell_id', n_boot=none, unit_columns=['unit_key'],
                                single_unit_column=none, single_counts=none, salt=none) -%}
  {%- set cfg = biasmirror.bootstrap_config() -%}
  {%- set n_boot = cfg.n_boot if n_boot is none else n_boot | int -%}
  {%- if execute and n_boot < 1 -%}{{ exceptions.raise_compiler_error("bootstrap_cell_weights: n_boot must be >= 1, got " ~ n_boot) }}{%- endif -%}
  {%- set salt = (this.name if this is not none else 'cells') if salt is none else salt -%}
  {%- set unit = unit_columns | join(', ') -%}
  with bootstrap_unit_signatures as (
      select {{ unit }}, {{ biasmirror.sorted_list_agg(cell_column) }} as signature
      from {{ units }}
      {%- if single_unit_column is not none and single_counts is none %}
      where not {{ single_unit_column }}
      {%- endif %}
      group by {{ unit }}
  ),
  bootstrap_single_cells as (
      {%- if single_counts is not none %}
      select {{ cell_column }} as cell, n_single as n_units from {{ single_counts }} where n_single > 0
      {%- elif single_unit_column is not none %}
      select {{ cell_column }} as cell, count(*) as n_units from {{ units }} where {{ single_unit_column }} group by {{ cell_column }}
      {%- else %}
      select cast(null as bigint) as cell, cast(null as bigint) as n_units where 1 = 0
      {%- endif %}
  ),
  bootstrap_joint_cells as (
      select
          row_number() over (order by label) as joint_id,
          {{ biasmirror.resample_key(biasmirror.sql_string(salt ~ '|') ~ ' || label') }} as joint_key,
          label, signature, cell, n_units
      from (
          select 'units:' || cast(signature as {{ biasmirror.type_text() }}) as label, signature, cast(null as bigint) as cell, count(*) as n_units
          from bootstrap_unit_signatures
          group by signature
          union all
          select 'cell:' || cast(cell as {{ biasmirror.type_text() }}), null, cell, n_units
          from bootstrap_single_cells
      ) as joint
  ),
  bootstrap_joint_members as (
      select joint_id, cell, cast(count(*) as integer) as multiplicity
      from (select joint_id, {{ biasmirror.unnest_list('signature') }} as cell from bootstrap_joint_cells where signature is not null) as members
      group by joint_id, cell
      union all
      select joint_id, cell, 1 from bootstrap_joint_cells where cell is not null
  ),
  bootstrap_joint_draws as (
      {{ biasmirror.poisson_draws('bootstrap_joint_cells', n_boot, ['joint_id']) | indent(6) }}
  )

  -- observed counts, from the joint cells: n units x their multiplicity in the cell
  select members.cell as {{ cell_column }}, -1 as replicate, cast(sum(joint_cells.n_units * members.multiplicity) as integer) as weight
  from bootstrap_joint_cells as joint_cells
  inner join bootstrap_joint_members as members using (joint_id)
  group by members.cell

  union all

  -- integer weights: DuckDB sums integers far faster than the 128-bit sums of bigints
  select members.cell as {{ cell_column }}, draws.replicate, cast(sum(draws.weight * members.multiplicity) as integer) as weight
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
    Returns one row per group and metric (long format, which BI tools and analysts filter easily). The
    aggregation runs over the wide relation (one pass, both bounds of a metric from one sort of its values) and
    only the summary is turned into long rows. with_se: also the column se, the bootstrap standard error (the
    sample standard deviation of the replicates), which the p-values and minimum detectable effects read
    (macros/metrics/significance.sql). -#}
{% macro summarise_replicates(replicates, group_columns, metric_names, n_column, n_alias, with_se=false) -%}
  {%- set groups = group_columns | join(', ') -%}
  {%- set alpha = bootstrap_config().alpha -%}
  with summary_wide as (
      select
          {{ groups }},
          cast(max(case when replicate = -1 then {{ n_column }} end) as bigint) as summary_n,
          {%- for name in metric_names %}
          max(case when replicate = -1 then {{ name }} end) as estimate_{{ loop.index }},
          {{ biasmirror.quantile_cont_bounds('case when replicate >= 0 then ' ~ name ~ ' end', alpha / 2, 1 - alpha / 2) }} as bounds_{{ loop.index }},
          {%- if with_se %}
          stddev_samp(case when replicate >= 0 then {{ name }} end) as se_{{ loop.index }},
          {%- endif %}
          count(case when replicate >= 0 and {{ name }} is not null then 1 end) as n_boot_{{ loop.index }}{{ "," if not loop.last }}
          {%- endfor %}
      from {{ replicates }}
      group by {{ groups }}
  ),

  metric_names as (
      select * from (values
          {%- for name in metric_names %}
          ({{ loop.index }}, '{{ name }}'){{ "," if not loop.last }}
          {%- endfor %}
      ) as names (metric_order, metric)
  )

  select
      {% for column in group_columns %}summary_wide.{{ column }}, {% endfor %}
      metric_names.metric,
      case metric_names.metric_order
          {%- for name in metric_names %}
          when {{ loop.index }} then summary_wide.estimate_{{ loop.index }}
          {%- endfor %}
      end as estimate,
      case metric_names.metric_order
          {%- for name in metric_names %}
          when {{ loop.index }} then {{ biasmirror.list_item("summary_wide.bounds_" ~ loop.index, 1) }}
          {%- endfor %}
      end as ci_low,
      case metric_names.metric_order
          {%- for name in metric_names %}
          when {{ loop.index }} then {{ biasmirror.list_item("summary_wide.bounds_" ~ loop.index, 2) }}
          {%- endfor %}
      end as ci_high,
      {%- if with_se %}
      case metric_names.metric_order
          {%- for name in metric_names %}
          when {{ loop.index }} then summary_wide.se_{{ loop.index }}
          {%- endfor %}
      end as se,
      {%- endif %}
      summary_wide.summary_n as {{ n_alias }},
      case metric_names.metric_order
          {%- for name in metric_names %}
          when {{ loop.index }} then summary_wide.n_boot_{{ loop.index }}
          {%- endfor %}
      end as n_boot,
      metric_names.metric_order
  from summary_wide
  cross join metric_names
{%- endmacro %}
