-- Appointment-allocation selection rates per model, prompt set, language, discipline and condition (Figure 2
-- of the implicit-bias study): the share of valid answers that chose the transgender candidate, with a 95%
-- percentile bootstrap interval that resamples pairs, the order (position) effect, and an exact binomial
-- test against 0.5. Refusals and unparsed answers are counted, not dropped.

{%- set metrics = ['trans_rate', 'trans_rate_trans_first', 'trans_rate_cis_first', 'order_effect', 'first_position_rate'] %}
{%- set groups = ['model', 'prompt_set', 'language', 'discipline', 'explanation', 'symptoms'] %}

with summary as (
    {{ summarise_replicates(ref('int_implicit_allocation_replicates'), groups, metrics, 'n_pairs_w', 'n_pairs') | indent(4) }}
),

wide as (
    select
        {{ groups | join(', ') }},
        {%- for metric in metrics %}
        max(case when metric = '{{ metric }}' then estimate end) as {{ metric }},
        max(case when metric = '{{ metric }}' then ci_low end) as {{ metric }}_ci_low,
        max(case when metric = '{{ metric }}' then ci_high end) as {{ metric }}_ci_high,
        {%- endfor %}
        max(case when metric = 'trans_rate' then n_boot end) as n_boot
    from summary
    group by {{ groups | join(', ') }}
),

observed as (
    select
        {{ groups | join(', ') }},
        count(*) as n_pairs,
        cast(sum(n_answers) as bigint) as n_answers,
        cast(sum(n_transgender + n_cisgender) as bigint) as n_valid,
        cast(sum(n_transgender) as bigint) as n_transgender,
        cast(sum(n_cisgender) as bigint) as n_cisgender,
        cast(sum(n_refused) as bigint) as n_refused,
        cast(sum(n_unparsed) as bigint) as n_unparsed
    from {{ ref('int_implicit_allocation_units') }}
    group by {{ groups | join(', ') }}
),

tests as (
    select * from {{ ref('int_implicit_allocation_binomial_tests') }}
)

select
    {%- for column in groups %}
    observed.{{ column }},
    {%- endfor %}
    wide.trans_rate,
    wide.trans_rate_ci_low as ci_low,
    wide.trans_rate_ci_high as ci_high,
    1 - wide.trans_rate as cis_rate,
    observed.n_valid,
    observed.n_transgender,
    observed.n_cisgender,
    observed.n_refused,
    observed.n_unparsed,
    observed.n_answers,
    observed.n_pairs,
    tests.p_value,
    wide.trans_rate_trans_first,
    wide.trans_rate_cis_first,
    wide.order_effect,
    wide.order_effect_ci_low,
    wide.order_effect_ci_high,
    wide.first_position_rate,
    wide.first_position_rate_ci_low,
    wide.first_position_rate_ci_high,
    wide.n_boot
from observed
left join wide
    on {% for column in groups %}wide.{{ column }} = observed.{{ column }}{{ "\n    and " if not loop.last }}{% endfor %}
left join tests
    on {% for column in groups %}tests.{{ column }} = observed.{{ column }}{{ "\n    and " if not loop.last }}{% endfor %}
