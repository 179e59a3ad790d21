{#- Exact (Clopper-Pearson) two-sided interval of a binomial proportion, in portable SQL.

    `counts` is a relation with the columns `keys` and the counts `n` (trials) and `k` (successes); the macro
    returns a query with `keys`, ci_low and ci_high such that P(X >= k | n, ci_low) = alpha / 2 and
    P(X <= k | n, ci_high) = alpha / 2 (ci_low = 0 when k = 0, ci_high = 1 when k = n): the beta quantiles
    B(alpha/2; k, n-k+1) and B(1-alpha/2; k+1, n-k), without a beta function in SQL.

    How: the upper bound is 1 minus the lower bound of n - k, so both are one problem, "the p at which the upper
    binomial tail P(X >= x | n, p) reaches alpha / 2" (the tail grows with p). The tail is summed from its terms
    exp(log C(n, j) + j ln p + (n - j) ln(1 - p)), with log C(n, j) a running sum of ln((n - j + 1) / j). The root
    is bracketed on a grid of `grid` points, then on a grid inside the bracket, `stages` times: the error is at
    most grid^-stages / 2 (64^-6 / 2 = 7e-12). Cost: groups x 2 x grid x (n + 1) rows per stage. -#}
{% macro clopper_pearson(counts, keys, n='n', k='k', alpha=0.05, grid=64, stages=6) -%}
{%- set key_list = keys | join(', ') -%}
{%- set prefixed = [] -%}{%- for key in keys -%}{%- do prefixed.append('b.' ~ key) -%}{%- endfor -%}
{%- set on_keys = [] -%}{%- for key in keys -%}{%- do on_keys.append('t.' ~ key ~ ' is not distinct from b.' ~ key) -%}{%- endfor -%}
{%- set tt_keys = [] -%}{%- for key in keys -%}{%- do tt_keys.append('tt.' ~ key ~ ' is not distinct from st.' ~ key) -%}{%- endfor -%}
{%- set st_keys = [] -%}{%- for key in keys -%}{%- do st_keys.append('st.' ~ key) -%}{%- endfor -%}
with cp_input as (
    select {{ key_list }}, cast({{ n }} as integer) as cp_n, cast({{ k }} as integer) as cp_k from {{ counts }}
),

cp_problems as (
    select {{ key_list }}, cp_n, cp_k, 'low' as cp_side, cp_k as cp_x from cp_input
    union all
    select {{ key_list }}, cp_n, cp_k, 'high' as cp_side, cp_n - cp_k as cp_x from cp_input
),

cp_j as {{ integer_series('(select max(cp_n) + 1 from cp_input)', 'j') }},

cp_terms as (
    select
        p.*,
        cp_j.j,
        sum(case when cp_j.j = 0 then 0.0 else ln((p.cp_n - cp_j.j + 1.0) / cp_j.j) end) over (
            partition by {% for key in keys %}p.{{ key }}, {% endfor %}p.cp_side
            order by cp_j.j rows between unbounded preceding and current row
        ) as log_choose
    from cp_problems p
    join cp_j on cp_j.j <= p.cp_n
),

cp_tail_terms as (
    select * from cp_terms where j >= cp_x and cp_x > 0
),

cp_grid as {{ integer_series(grid, 'g') }},

cp_stage0 as (
    select {{ key_list }}, cp_side, cp_n, cp_k, cp_x, 0.0 as lo from cp_problems
),
{#- each stage reads the previous one once (an engine that inlines CTEs, as Spark does, would otherwise compute
    stage s - 1 twice for stage s: 2^stages copies of the first) -#}
{% for s in range(1, stages + 1) %}
{%- set width = '(1.0 / power(' ~ grid ~ ', ' ~ s ~ '))' %}
cp_stage{{ s }} as (
    select {{ key_list }}, cp_side, cp_n, cp_k, cp_x, coalesce(max(case when tail <= {{ alpha / 2 }} then p end), lo) as lo
    from (
        select
            {{ st_keys | join(', ') }}, st.cp_side, st.cp_n, st.cp_k, st.cp_x, st.lo,
            st.lo + g.g * {{ width }} as p,
            sum({{ biasmirror.exp_or_zero('tt.log_choose + tt.j * ln(st.lo + g.g * ' ~ width ~ ')'
                                          ' + (tt.cp_n - tt.j) * ln(1 - (st.lo + g.g * ' ~ width ~ '))') }}) as tail
        from cp_stage{{ s - 1 }} st
        cross join cp_grid g
        left join cp_tail_terms tt
            on {{ tt_keys | join(' and ') }} and tt.cp_side = st.cp_side
        where g.g >= 1
        group by {{ st_keys | join(', ') }}, st.cp_side, st.cp_n, st.cp_k, st.cp_x, st.lo, g.g
    ) as tails
    group by {{ key_list }}, cp_side, cp_n, cp_k, cp_x, lo
),
{% endfor %}
cp_bounds as (
    select
        {{ key_list }}, cp_side,
        case when cp_x = 0 then 0.0 else lo + 0.5 / power({{ grid }}, {{ stages }}) end as lower_bound
    from cp_stage{{ stages }}
)

-- both sides of a problem in one pass (a self-join would read the stages twice)
select
    {{ key_list }},
    max(case when cp_side = 'low' then lower_bound end) as ci_low,
    1.0 - max(case when cp_side = 'high' then lower_bound end) as ci_high
from cp_bounds
group by {{ key_list }}
{%- endmacro %}
