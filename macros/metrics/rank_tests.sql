{#- The Mann-Whitney U test (two-sided, normal approximation with tie and continuity corrections, as
    scipy.stats.mannwhitneyu(method='asymptotic', use_continuity=True)) from counts per ordinal value.

    With n_x(v), n_y(v) units of groups x and y at value v:
      U_x = sum_v n_x(v) * (n_y(values below v) + n_y(v) / 2)
      sigma^2 = n_x n_y / 12 * ((n + 1) - sum_v (t_v^3 - t_v) / (n (n - 1))),  t_v = n_x(v) + n_y(v)
      z = (max(U_x, n_x n_y - U_x) - n_x n_y / 2 - 1/2) / sigma,   p = min(1, erfc(z / sqrt 2)). -#}

{#- erfc of a non-negative column or simple expression (Numerical Recipes' Chebyshev fit: relative error below
    1.2e-7 everywhere, so small p-values keep their precision). -#}
{% macro erfc_nonnegative(x) -%}
  {%- set t = '(1.0 / (1.0 + 0.5 * (' ~ x ~ ')))' -%}
  {%- set exponent = '-((' ~ x ~ ') * (' ~ x ~ ')) - 1.26551223 + ' ~ t ~ ' * (1.00002368 + ' ~ t ~ ' * (0.37409196 + '
      ~ t ~ ' * (0.09678418 + ' ~ t ~ ' * (-0.18628806 + ' ~ t ~ ' * (0.27886807 + ' ~ t ~ ' * (-1.13520398 + ' ~ t
      ~ ' * (1.48851587 + ' ~ t ~ ' * (-0.82215223 + ' ~ t ~ ' * 0.17087277))))))))' -%}
  ({{ t }} * {{ biasmirror.exp_or_zero(exponent) }})
{%- endmacro %}

{#- Two-sided p-value of a standard normal statistic z (a column name): P(|Z| >= |z|) = erfc(|z| / sqrt 2). -#}
{% macro normal_two_sided_p(z) -%}
  least(1.0, {{ biasmirror.erfc_nonnegative('abs(' ~ z ~ ') / sqrt(2.0)') }})
{%- endmacro %}

{#- Mann-Whitney statistics for each group, from a relation `counts` with the group columns, `value` and the
    counts `n_x` and `n_y` of the two samples at that value. Returns the group columns, n_x, n_y, u_x, z and p. -#}
{% macro mann_whitney_from_counts(counts, group_columns) -%}
  {%- set groups = group_columns | join(', ') -%}
  with ranked as (
      select
          {{ groups }}, value, n_x, n_y,
          coalesce(sum(n_y) over (partition by {{ groups }} order by value
                                  rows between unbounded preceding and 1 preceding), 0) as n_y_below
      from {{ counts }}
  ),

  totals as (
      select
          {{ groups }},
          cast(sum(n_x) as {{ biasmirror.type_double() }}) as n_x,
          cast(sum(n_y) as {{ biasmirror.type_double() }}) as n_y,
          sum(n_x * (n_y_below + n_y / 2.0)) as u_x,
          sum(cast(n_x + n_y as {{ biasmirror.type_double() }}) * (n_x + n_y) * (n_x + n_y) - (n_x + n_y)) as tie_term
      from ranked
      group by {{ groups }}
  ),

  statistics as (
      select
          {{ groups }}, n_x, n_y, u_x,
          (greatest(u_x, n_x * n_y - u_x) - n_x * n_y / 2.0 - 0.5)
              / nullif(sqrt(n_x * n_y / 12.0 * ((n_x + n_y + 1) - tie_term / nullif((n_x + n_y) * (n_x + n_y - 1), 0))), 0)
              as z
      from totals
  )

  -- z <= 0 only when U is at its mean: p = min(1, 2 P(Z >= z)) = 1, as scipy gives.
  select {{ groups }}, n_x, n_y, u_x, z,
         case when z <= 0 then 1.0 else {{ biasmirror.normal_two_sided_p('z') }} end as p_value
  from statistics
{%- endmacro %}
