-- The study's exploratory word clouds as a ranked table: terms of the original notes (setting full) by the size
-- of their pooled rate over the pairs that contain them, with PDR and DTS per direction and 95% intervals.
-- Hypothesis-generating only: terms are not clinical categories, and with many terms some intervals exclude zero
-- by chance.

with wide as (
    select
        dataset, model, generator, setting, term,
        max(n_pairs) as n_pairs,
        max(n_m_to_f) as n_m_to_f,
        max(n_f_to_m) as n_f_to_m,
        {%- for metric in term_metric_names() %}
        max(case when metric = '{{ metric }}' then estimate end) as {{ metric }},
        max(case when metric = '{{ metric }}' then ci_low end) as {{ metric }}_ci_low,
        max(case when metric = '{{ metric }}' then ci_high end) as {{ metric }}_ci_high{{ "," if not loop.last }}
        {%- endfor %}
    from {{ ref('term_associations') }}
    group by dataset, model, generator, setting, term
)

select
    *,
    row_number() over (partition by dataset, model, generator, setting order by abs(pooled_rate) desc, term) as rank_by_pooled_rate
from wide
order by dataset, model, generator, setting, rank_by_pooled_rate
