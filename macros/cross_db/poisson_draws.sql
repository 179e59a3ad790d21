{#- One Poisson(n) draw per row of `cells` and bootstrap replicate, by inversion of the exact Poisson CDF.

    cells: a relation with columns joint_id, joint_key (a 64-bit hash) and n_units (n >= 1).
    Returns (joint_id, replicate, weight) for replicates 0 .. n_boot - 1.

    The CDF of every distinct n is tabulated over k in [n - 10 sqrt(n) - 10, n + 10 sqrt(n) + 15] (the mass
    outside is below 1e-20) from log pmf = k ln n - n - lgamma(k + 1). A uniform u from hash(joint_key xor
    replicate) then maps to the smallest k with cdf(k) > u: the ASOF join finds the largest k with cdf(k) <= u
    and the draw is k + 1, or the window's lower end when u < cdf(lower end). -#}
{% macro poisson_draws(cells, n_boot) -%}
  {{ return(adapter.dispatch('poisson_draws', 'biasmirror')(cells, n_boot)) }}
{%- endmacro %}

{% macro duckdb__poisson_draws(cells, n_boot) -%}
  {%- set lower = "cast(greatest(0, floor(n - 10 * sqrt(n) - 10)) as bigint)" -%}
  with poisson_sizes as (
      select distinct n_units as n from {{ cells }}
  ),
  poisson_support as (
      select n, unnest(range({{ lower }}, cast(ceil(n + 10 * sqrt(n) + 15) as bigint) + 1)) as k
      from poisson_sizes
  ),
  poisson_cdf as (
      select n, k,
             sum(exp(k * ln(n) - n - lgamma(k + 1))) over (
                 partition by n order by k rows between unbounded preceding and current row) as cdf
      from poisson_support
  ),
  poisson_uniforms as (
      select
          cells.joint_id,
          cells.n_units as n,
          replicates.replicate,
          {{ biasmirror.uniform_from_hash(biasmirror.hash64(biasmirror.xor64('cells.joint_key', 'replicates.replicate'))) }} as u
      from {{ cells }} as cells
      cross join {{ biasmirror.integer_series(n_boot, 'replicate') }} as replicates
  )
  select
      draws.joint_id,
      draws.replicate,
      coalesce(poisson_cdf.k + 1, cast(greatest(0, floor(draws.n - 10 * sqrt(draws.n) - 10)) as bigint)) as weight
  from poisson_uniforms as draws
  asof left join poisson_cdf
      on draws.n = poisson_cdf.n and draws.u >= poisson_cdf.cdf
{%- endmacro %}
