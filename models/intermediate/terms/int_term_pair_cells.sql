-- Every (term, pair) incidence of the warehouse's own pairs, in the settings of var term_settings, whose
-- original notes contain a term with enough support (at least var min_term_pairs pairs of the same data set,
-- model, generator and setting), mapped to a cell: the incidences of a cell share group, term, direction and
-- level change (delta), so every paired metric of a term is a function of its cells' weighted counts (as
-- int_pair_cells does for strata).

with pairs as (
    select * from {{ ref('int_pairs_unioned') }}
    where pair_source = 'model_inputs'
      and setting in ({% for setting in (var('term_settings') if execute else ['full']) %}'{{ setting }}'{{ ", " if not loop.last }}{% endfor %})
),

incidences as (
    select pairs.dataset, pairs.model, pairs.generator, pairs.setting, terms.term, pairs.pair_id, pairs.unit_key,
           pairs.unit_is_pair,
           pairs.direction, pairs.delta
    from pairs
    inner join {{ ref('int_record_terms') }} as terms
        on terms.dataset = pairs.dataset and terms.record_id = pairs.pair_id
),

supported as (
    select dataset, model, generator, setting, term
    from incidences
    group by dataset, model, generator, setting, term
    having count(*) >= {{ var('min_term_pairs') }}
)

select
    incidences.*,
    dense_rank() over (
        order by incidences.dataset, incidences.model, incidences.generator, incidences.setting, incidences.term,
                 incidences.direction, incidences.delta
    ) as cell_id
from incidences
inner join supported using (dataset, model, generator, setting, term)
