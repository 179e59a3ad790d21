{#- Tests, multiplicity adjustment and detectable effects for the bootstrap marts (docs/metrics.md, "p-values,
    q-values and the minimum detectable effect"), defined once.

    p-value: two-sided, from the bootstrap standard error se (the standard deviation of the replicates):
        z = estimate / se,   p = 2 (1 - Phi(|z|)) = erfc(|z| / sqrt 2).
    A test of "no effect" (the metric is zero) that accounts for the resampling unit (patients) the way the
    interval does. It is used instead of the share of replicates beyond zero, whose smallest value is 2 / (B + 1):
    with B = 1000 no p-value could fall below 0.002, and a family of a few hundred tests needs p-values far below
    that to survive an adjustment.

    q-value: the p-values of one family adjusted for multiplicity, as statsmodels' multipletests does:
        fdr_bh (Benjamini-Hochberg, the default): q_(i) = min over j >= i of min(1, p_(j) m / j)
        holm (Holm-Bonferroni, family-wise):      q_(i) = max over j <= i of min(1, p_(j) (m - j + 1))
    for the p-values of the family sorted ascending, p_(1) <= ... <= p_(m), m the family's non-null p-values;
    var p_adjust_method chooses.

    Minimum detectable effect: the smallest true effect the test above finds with probability var mde_power
    (default 0.8) at level alpha = 1 - ci_level, two-sided, when the estimate is normal with the bootstrap SE:
        mde = (z_{1 - alpha/2} + z_{power}) se. -#}

{#- Upper tail of the standard normal, 1 - Phi(x), for a SQL expression x >= 0: erfc(x / sqrt 2) / 2 with the
    Chebyshev fit of erfc of Numerical Recipes (erfcc; relative error below 1.2e-7 everywhere, tails included).
    x is capped at 37 (a tail of 1e-300) so that exp never underflows, which PostgreSQL reports as an error. -#}
{% macro normal_upper_tail(x) -%}
  {%- set w = '(least(' ~ x ~ ', 37.0) / 1.4142135623730951)' -%}
  {%- set t = '(1.0 / (1.0 + 0.5 * ' ~ w ~ '))' -%}
  {%- set coefficients = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398,
                          1.48851587, -0.82215223, 0.17087277] -%}
  {%- set ns = namespace(poly=coefficients[-1] | string) -%}
  {%- for c in coefficients[:-1] | reverse -%}
    {%- set ns.poly = '(' ~ c ~ ' + ' ~ t ~ ' * ' ~ ns.poly ~ ')' -%}
  {%- endfor -%}
  (0.5 * {{ t }} * exp(-{{ w }} * {{ w }} + {{ ns.poly }}))
{%- endmacro %}

{#- The same tail in Jinja, for constants (e ** x: Jinja has no math module). -#}
{% macro normal_upper_tail_value(x) -%}
  {%- set w = ([x, 37.0] | min) / 1.4142135623730951 -%}
  {%- set t = 1.0 / (1.0 + 0.5 * w) -%}
  {%- set coefficients = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398,
                          1.48851587, -0.82215223, 0.17087277] -%}
  {%- set ns = namespace(poly=coefficients[-1]) -%}
  {%- for c in coefficients[:-1] | reverse -%}{%- set ns.poly = c + t * ns.poly -%}{%- endfor -%}
  {{- return(0.5 * t * (2.718281828459045 ** (-w * w + ns.poly))) -}}
{%- endmacro %}

{#- The standard normal quantile z_p (Phi(z_p) = p, 0 < p < 1), by bisection on normal_upper_tail_value: a
    constant of the compiled SQL (the level of the intervals, the power of the mde). -#}
{% macro normal_quantile(p) -%}
  {%- set p = p | float -%}
  {%- set ns = namespace(low=-38.0, high=38.0) -%}
  {%- for i in range(80) -%}
    {%- set mid = (ns.low + ns.high) / 2 -%}
    {%- set cdf = (1 - biasmirror.normal_upper_tail_value(mid)) if mid >= 0 else biasmirror.normal_upper_tail_value(-mid) -%}
    {%- if cdf < p -%}{%- set ns.low = mid -%}{%- else -%}{%- set ns.high = mid -%}{%- endif -%}
  {%- endfor -%}
  {{- return((ns.low + ns.high) / 2) -}}
{%- endmacro %}

{#- Two-sided p-value of "the metric is zero" from an estimate and its bootstrap SE (SQL expressions): null
    without an SE above zero (a metric with no variation over the replicates cannot be tested this way). -#}
{% macro bootstrap_p_value(estimate, se) -%}
    case when {{ se }} > 0 and {{ estimate }} is not null
        then least(1.0, 2 * {{ biasmirror.normal_upper_tail('abs(' ~ estimate ~ ') / ' ~ se) }}) end
{%- endmacro %}

{#- The multiplier of the SE in the minimum detectable effect: z_{1 - alpha/2} + z_{power}. -#}
{% macro mde_multiplier() -%}
  {%- set alpha = biasmirror.bootstrap_config().alpha -%}
  {%- set power = var('mde_power', 0.8) | float -%}
  {%- if execute and not (0 < power < 1) -%}{{ exceptions.raise_compiler_error("var mde_power must be in (0, 1), got " ~ power) }}{%- endif -%}
  {{- (biasmirror.normal_quantile(1 - alpha / 2) + biasmirror.normal_quantile(power)) | round(10) -}}
{%- endmacro %}

{#- The method of the multiplicity adjustment: var p_adjust_method, fdr_bh (default) or holm. -#}
{% macro p_adjust_method() -%}
  {%- set method = var('p_adjust_method', 'fdr_bh') | string -%}
  {%- if execute and method not in ('fdr_bh', 'holm') -%}{{ exceptions.raise_compiler_error("var p_adjust_method must be 'fdr_bh' or 'holm', got '" ~ method ~ "'") }}{%- endif -%}
  {{- return(method) -}}
{%- endmacro %}

{#- `relation` with two more columns: n_tests (the non-null p-values of the row's family) and q_value (the row's
    p-value adjusted over its family, var p_adjust_method), plus the helper column p_rank. A family is one value
    of `family_columns`; rows with a null p-value are not tested (null q_value) and do not count in n_tests. Ties
    get the same q-value whatever their order in p_rank. -#}
{% macro adjusted_p_values(relation, family_columns, p_column='p_value') -%}
  {%- set family = family_columns | join(', ') -%}
  {%- set method = biasmirror.p_adjust_method() -%}
  select
      ranked.*,
      case when ranked.{{ p_column }} is not null then
      {%- if method == 'holm' %}
          least(1.0, max({{ p_column }} * (n_tests - p_rank + 1)) over (
              partition by {{ family }} order by p_rank rows between unbounded preceding and current row))
      {%- else %}
          least(1.0, min({{ p_column }} * n_tests / p_rank) over (
              partition by {{ family }} order by p_rank desc rows between unbounded preceding and current row))
      {%- endif %}
      end as q_value
  from (
      select
          family_rows.*,
          count({{ p_column }}) over (partition by {{ family }}) as n_tests,
          row_number() over (partition by {{ family }} order by {{ p_column }} nulls last) as p_rank
      from {{ relation }} as family_rows
  ) as ranked
{%- endmacro %}
