-- Exact two-sided binomial test of trans_rate against 0.5, per model, prompt set, language, discipline and
-- condition: with n valid answers of which x chose the transgender candidate and m = min(x, n - x),
--   p = min(1, 2 * sum_{k=0..m} C(n, k) / 2^n)
-- (for p0 = 0.5 the distribution is symmetric, so this equals scipy.stats.binomtest(x, n, 0.5).pvalue).
-- log C(n, k) is accumulated as sum_{j=1..k} ln((n - j + 1) / j), with no engine-specific function.
-- The test treats the valid answers as independent; the two answers about a pair are not, so read it next to
-- the pair-bootstrap interval of audit.allocation_selection_rates. Groups with more than max_n valid answers
-- get no p-value (the series below is bounded). p is rounded to 15 decimals (below 5e-16 it reads 0).

{%- set max_n = 200000 %}

with observed as (
    select
        model, prompt_set, language, discipline, explanation, symptoms,
        cast(sum(n_transgender + n_cisgender) as bigint) as n_valid,
        cast(sum(n_transgender) as bigint) as n_transgender
    from {{ ref('int_implicit_allocation_units') }}
    group by model, prompt_set, language, discipline, explanation, symptoms
),

testable as (
    select
        *,
        least(n_transgender, n_valid - n_transgender) as k_max
    from observed
    where n_valid > 0 and n_valid <= {{ max_n }}
),

terms as (
    select
        testable.model, testable.prompt_set, testable.language, testable.discipline, testable.explanation,
        testable.symptoms, testable.n_valid, series.k,
        sum(case when series.k = 0 then 0.0 else ln(testable.n_valid - series.k + 1) - ln(series.k) end) over (
            partition by testable.model, testable.prompt_set, testable.language, testable.discipline,
                         testable.explanation, testable.symptoms
            order by series.k
            rows between unbounded preceding and current row
        ) as log_choose
    from testable
    inner join {{ integer_series(max_n + 1, 'k') }} as series
        on series.k <= testable.k_max
),

p_values as (
    select
        model, prompt_set, language, discipline, explanation, symptoms,
        {{ round_half_away('least(1.0, 2 * sum(exp(log_choose + n_valid * ln(0.5))))', 15) }} as p_value
    from terms
    group by model, prompt_set, language, discipline, explanation, symptoms
)

select
    observed.model,
    observed.prompt_set,
    observed.language,
    observed.discipline,
    observed.explanation,
    observed.symptoms,
    observed.n_valid,
    observed.n_transgender,
    p_values.p_value
from observed
left join p_values
    on p_values.model = observed.model
    and p_values.prompt_set = observed.prompt_set
    and p_values.language = observed.language
    and p_values.discipline = observed.discipline
    and p_values.explanation = observed.explanation
    and p_values.symptoms = observed.symptoms
