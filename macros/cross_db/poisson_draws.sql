{#- One exact Poisson(n) draw per row of `cells` and bootstrap replicate.

    cells: a relation with columns joint_key (a 64-bit hash, distinct per row), n_units (an integer n >= 1) and
    the columns named in `columns`, which are carried through. Returns those columns, replicate (0 .. n_boot - 1)
    and weight (an integer), one row per cell and replicate: the rows are streamed into the caller (usually a sum
    per replicate), never written out.

    Randomness comes from h = hash(joint_key xor replicate) and hashes of h, so a draw depends only on the cell's
    key and the replicate, whatever the row order or thread count. Two exact methods:
    - n < 1000: inversion of the exact CDF (the smallest k with cdf(k) > u, u from h) through a guide table
      (Chen and Asau 1974): for every distinct n, the CDF over k in [n - 10 sqrt(n) - 10, n + 10 sqrt(n) + 15]
      (the mass outside is below 1e-20) from log pmf = k ln n - n - lgamma(k + 1), cut into m equal bins of u; a
      bin holds the count of CDF values below it and the few values inside it, so a draw is one equality join and
      two or three comparisons, with no search.
    - n >= 1000: the transformed rejection method with squeeze of Hoermann (1993), "The transformed rejection
      method for generating Poisson random variables" (PTRS): a pair of uniforms (U, V) gives a candidate k that
      is accepted with a probability that makes accepted values exactly Poisson(n); at these n more than 9
      candidates in 10 are accepted at the first pair. A rejected candidate is replaced by the next pair (hashes
      of h with another salt), up to var poisson_attempts pairs (12); the chance that all are rejected is below
      1e-12 per draw, and such a draw takes the value round(n). The candidate's arithmetic needs no table, so
      the cost does not grow with the number of distinct large n.
    An earlier version inverted every distinct n's CDF with an ASOF join (a sort of all draws, about 1 us each on
    two cores, and a table that grows with sqrt(n) for each distinct n). -#}
{% macro poisson_draws(cells, n_boot, columns=['joint_id']) -%}
  {{ return(adapter.dispatch('poisson_draws', 'biasmirror')(cells, n_boot, columns)) }}
{%- endmacro %}

{#- log(k!) for the PTRS test, by Stirling's series to the k^-5 term, accurate to 1e-13 relative for k >= 100
    (the candidates of n >= 1000 that can be accepted are far above that); cheaper than lgamma. -#}
{% macro log_factorial(k) -%}
  {#- as a double: Spark's floor() gives a bigint, whose x^5 below would overflow (silently, ANSI mode off) past
      x = 1,400 -#}
  {%- set x = '(cast(greatest(' ~ k ~ ', 0) as ' ~ biasmirror.type_double() ~ ') + 1)' -%}
  (({{ x }} - 0.5) * ln({{ x }}) - {{ x }} + 0.91893853320467274 + 1 / (12 * {{ x }}) - 1 / (360 * {{ x }} * {{ x }} * {{ x }})
   + 1 / (1260 * {{ x }} * {{ x }} * {{ x }} * {{ x }} * {{ x }}))
{%- endmacro %}

{#- The threshold between the two methods. -#}
{% macro poisson_table_limit() %}{{ return(1000) }}{% endmacro %}

{#- One PTRS candidate from the 64-bit hash expression `h`: expressions for the candidate k and whether it is
    accepted, over the per-cell constants poisson_n, poisson_b, poisson_a, poisson_ln_inv_alpha, poisson_vr and
    poisson_ln_n. U = u1 - 1/2, V = u2, us = 1/2 - |U|, k = floor((2a/us + b) U + n + 0.43); accept when
    us >= 0.07 and V <= v_r, or when k >= 0, not (us < 0.013 and V > us), and
    log(V inv_alpha / (a / us^2 + b)) <= -n + k log n - log(k!). -#}
{% macro duckdb__ptrs_candidate(u, v) -%}
  {%- set us = 'greatest(0.5 - abs(' ~ u ~ '), 1e-300)' -%}
  {%- set k = 'floor((2 * poisson_a / ' ~ us ~ ' + poisson_b) * ' ~ u ~ ' + poisson_n + 0.43)' -%}
  {%- set accepted -%}
    (({{ us }} >= 0.07 and {{ v }} <= poisson_vr)
     or ({{ k }} >= 0 and ({{ us }} >= 0.013 or {{ v }} <= {{ us }})
         and ln(greatest({{ v }}, 1e-300)) + poisson_ln_inv_alpha - ln(poisson_a / ({{ us }} * {{ us }}) + poisson_b)
             <= -poisson_n + {{ k }} * poisson_ln_n - {{ biasmirror.log_factorial(k) }}))
  {%- endset -%}
  {{ return({'k': k, 'accepted': accepted}) }}
{%- endmacro %}

{% macro duckdb__poisson_draws(cells, n_boot, columns) -%}
  {%- set attempts = var('poisson_attempts', 12) | int -%}
  {%- set limit = biasmirror.poisson_table_limit() -%}
  {%- set carried = columns | join(', ') -%}
  {%- set lower = 'cast(greatest(0, floor(n - 10 * sqrt(n) - 10)) as bigint)' -%}
  {%- set bins = 'cast(ceil(4 * sqrt(n) + 16) as bigint)' -%}
  with poisson_sizes as (
      select distinct cast(n_units as bigint) as n from {{ cells }} where n_units < {{ limit }}
  ),
  poisson_cdf as (
      select n, k,
             sum(exp(k * ln(n) - n - lgamma(k + 1))) over (
                 partition by n order by k rows between unbounded preceding and current row) as cdf
      from (
          select n, unnest(range({{ lower }}, cast(ceil(n + 10 * sqrt(n) + 15) as bigint) + 1)) as k
          from poisson_sizes
      ) as support
  ),
  -- CDF values inside each bin [j/m, (j+1)/m) of u, in order
  poisson_binned as (
      select n, cast(floor(cdf * {{ bins }}) as bigint) as bin, count(*) as n_inside, list(cdf order by cdf) as inside
      from poisson_cdf
      where cdf < 1
      group by n, cast(floor(cdf * {{ bins }}) as bigint)
  ),
  poisson_guide as (
      select
          bins.n * 1048576 + bins.bin as guide_key,
          cast({{ lower }} + coalesce(sum(binned.n_inside) over (
              partition by bins.n order by bins.bin rows between unbounded preceding and 1 preceding), 0) as integer) as below,
          coalesce(binned.inside[1], 2.0) as first_inside,
          coalesce(binned.inside[2], 2.0) as second_inside,
          coalesce(binned.inside[3], 2.0) as third_inside,
          case when binned.n_inside > 3 then binned.inside[4:] end as more_inside
      from (select n, unnest(range({{ bins }})) as bin from poisson_sizes) as bins
      left join poisson_binned as binned using (n, bin)
  ),
  {{ biasmirror.poisson_draws_from_guide(cells, n_boot, carried, limit, attempts) }}
{%- endmacro %}

{#- PostgreSQL and Spark (and any engine with the list macros of lists.sql): the same two methods and the same
    arithmetic, written with arrays. Neither has lgamma: log(k!) comes from a table of cumulative sums of log(j),
    which is exact to rounding. (Draws still differ from DuckDB's, because hash64 does: docs/engines.md.) -#}
{% macro default__poisson_draws(cells, n_boot, columns) -%}
  {%- set attempts = var('poisson_attempts', 12) | int -%}
  {%- set limit = biasmirror.poisson_table_limit() -%}
  {%- set carried = columns | join(', ') -%}
  {%- set lower = 'cast(greatest(0, floor(n - 10 * sqrt(n) - 10)) as bigint)' -%}
  {%- set bins = 'cast(ceil(4 * sqrt(n) + 16) as bigint)' -%}
  with poisson_sizes as (
      select distinct cast(n_units as bigint) as n from {{ cells }} where n_units < {{ limit }}
  ),
  poisson_log_factorials as (
      select k, sum(ln(greatest(k, 1))) over (order by k rows between unbounded preceding and current row) as log_factorial
      from {{ biasmirror.integer_series((limit + 10 * (limit ** 0.5) + 16) | round(0, 'ceil') | int, 'k') }} as log_terms
  ),
  poisson_cdf as (
      select support.n, support.k,
             sum(exp(greatest(support.k * ln(support.n) - support.n - factorials.log_factorial, -700))) over (
                 partition by support.n order by support.k rows between unbounded preceding and current row) as cdf
      from (
          select n, {{ biasmirror.integers_between(lower, 'cast(ceil(n + 10 * sqrt(n) + 15) as bigint)') }} as k
          from poisson_sizes
      ) as support
      inner join poisson_log_factorials as factorials on factorials.k = support.k
  ),
  poisson_binned as (
      select n, cast(floor(cdf * {{ bins }}) as bigint) as bin, count(*) as n_inside,
             {{ biasmirror.sorted_list_agg('cdf') }} as inside
      from poisson_cdf
      where cdf < 1
      group by n, cast(floor(cdf * {{ bins }}) as bigint)
  ),
  poisson_guide as (
      select
          n * 1048576 + bin as guide_key,
          cast({{ lower }} + coalesce(sum(binned.n_inside) over (
              partition by n order by bin rows between unbounded preceding and 1 preceding), 0) as integer) as below,
          coalesce({{ biasmirror.list_item('binned.inside', 1) }}, 2.0) as first_inside,
          coalesce({{ biasmirror.list_item('binned.inside', 2) }}, 2.0) as second_inside,
          coalesce({{ biasmirror.list_item('binned.inside', 3) }}, 2.0) as third_inside,
          case when binned.n_inside > 3 then {{ biasmirror.list_tail('binned.inside', 4) }} end as more_inside
      from (select n, {{ biasmirror.integers_between('cast(0 as bigint)', bins ~ ' - 1') }} as bin from poisson_sizes) as bins
      left join poisson_binned as binned using (n, bin)
  ),
  {{ biasmirror.poisson_draws_from_guide(cells, n_boot, carried, limit, attempts) }}
{%- endmacro %}

{#- The part of poisson_draws after the guide table, the same on every engine: the draws of small n (poisson_small:
    one lookup in poisson_guide, which the caller's CTEs define) and of large n (poisson_large: PTRS candidates),
    as CTEs continuing the caller's `with`, then the select of the draws. -#}
{% macro poisson_draws_from_guide(cells, n_boot, carried, limit, attempts) -%}
  poisson_small as (
      select
          {{ carried }},
          replicates.replicate,
          cast(cells.n_units as bigint) * 1048576 as poisson_key_base,
          cast(ceil(4 * sqrt(cells.n_units) + 16) as bigint) as poisson_bins,
          {{ biasmirror.uniform_from_hash(biasmirror.hash64(biasmirror.xor64('cells.joint_key', 'replicates.replicate'))) }} as poisson_u
      from {{ cells }} as cells
      cross join {{ biasmirror.integer_series(n_boot, 'replicate') }} as replicates
      where cells.n_units < {{ limit }}
  ),
  poisson_large as (
      select
          {{ carried }},
          replicates.replicate,
          cast(cells.n_units as {{ biasmirror.type_double() }}) as poisson_n,
          0.931 + 2.53 * sqrt(cast(cells.n_units as {{ biasmirror.type_double() }})) as poisson_b,
          -0.059 + 0.02483 * (0.931 + 2.53 * sqrt(cast(cells.n_units as {{ biasmirror.type_double() }}))) as poisson_a,
          ln(1.1239 + 1.1328 / (0.931 + 2.53 * sqrt(cast(cells.n_units as {{ biasmirror.type_double() }})) - 3.4)) as poisson_ln_inv_alpha,
          0.9277 - 3.6224 / (0.931 + 2.53 * sqrt(cast(cells.n_units as {{ biasmirror.type_double() }})) - 2) as poisson_vr,
          ln(cast(cells.n_units as {{ biasmirror.type_double() }})) as poisson_ln_n,
          {{ biasmirror.hash64(biasmirror.xor64('cells.joint_key', 'replicates.replicate')) }} as poisson_h
      from {{ cells }} as cells
      cross join {{ biasmirror.integer_series(n_boot, 'replicate') }} as replicates
      where cells.n_units >= {{ limit }}
  ),
  poisson_large_first as (
      select
          *,
          {{ biasmirror.uniform_from_hash('poisson_h') }} - 0.5 as poisson_u1,
          {{ biasmirror.uniform_from_hash(biasmirror.hash64('poisson_h')) }} as poisson_v1
      from poisson_large
  )

  select
      {{ carried }},
      draws.replicate,
      cast(guide.below + cast(draws.poisson_u >= guide.first_inside as integer)
           + cast(draws.poisson_u >= guide.second_inside as integer)
           + cast(draws.poisson_u >= guide.third_inside as integer)
           -- a bin of the far tails, where CDF values crowd: count the rest of them
           + case when guide.more_inside is null then 0
                  else {{ biasmirror.list_count_at_most('guide.more_inside', 'draws.poisson_u') }} end
           as integer) as weight
  from poisson_small as draws
  inner join poisson_guide as guide
      on guide.guide_key = draws.poisson_key_base + cast(floor(draws.poisson_u * draws.poisson_bins) as bigint)

  union all

  {%- set first = biasmirror.duckdb__ptrs_candidate('poisson_u1', 'poisson_v1') %}
  select
      {{ carried }},
      replicate,
      cast(case
          -- the squeeze alone accepts most candidates, without logarithms
          when greatest(0.5 - abs(poisson_u1), 1e-300) >= 0.07 and poisson_v1 <= poisson_vr then {{ first.k }}
          when {{ first.accepted }} then {{ first.k }}
          {%- for attempt in range(1, attempts) %}
          {%- set h = biasmirror.hash64(biasmirror.xor64('poisson_h', (attempt * 11400714819323198485) % 18446744073709551616)) %}
          {%- set candidate = biasmirror.duckdb__ptrs_candidate('(' ~ biasmirror.uniform_from_hash(h) ~ ' - 0.5)', biasmirror.uniform_from_hash(biasmirror.hash64(h))) %}
          when {{ candidate.accepted }} then {{ candidate.k }}
          {%- endfor %}
          else round(poisson_n)
      end as integer) as weight
  from poisson_large_first
{%- endmacro %}
