-- Allocation selection rates in every bootstrap replicate (replicate -1: the observed pairs), per model,
-- prompt set, language, discipline and condition. Valid answers are those that chose a candidate (refusals
-- and unparsed answers are counted in the mart, not here).
--   trans_rate              share of valid answers that chose the transgender candidate
--   trans_rate_trans_first  the same over answers where the transgender candidate was listed first
--   trans_rate_cis_first    the same over answers where the cisgender candidate was listed first
--   order_effect            trans_rate_trans_first - trans_rate_cis_first (> 0: the candidate listed first is favoured)
--   first_position_rate     share of valid answers that chose the candidate listed first (0.5: no position bias)

with weights as (
    select * from {{ ref('int_implicit_allocation_bootstrap_weights') }}
),

cells as (
    select distinct
        cell_id, model, prompt_set, language, discipline, explanation, symptoms, n_transgender, n_cisgender,
        n_valid_trans_first, n_transgender_trans_first, n_valid_cis_first, n_transgender_cis_first, n_chose_first
    from {{ ref('int_implicit_allocation_units') }}
),

sums as (
    select
        cells.model,
        cells.prompt_set,
        cells.language,
        cells.discipline,
        cells.explanation,
        cells.symptoms,
        weights.replicate,
        sum(weights.weight) as n_pairs_w,
        sum(weights.weight * (cells.n_transgender + cells.n_cisgender)) as n_valid,
        sum(weights.weight * cells.n_transgender) as n_transgender,
        sum(weights.weight * cells.n_valid_trans_first) as n_valid_trans_first,
        sum(weights.weight * cells.n_transgender_trans_first) as n_transgender_trans_first,
        sum(weights.weight * cells.n_valid_cis_first) as n_valid_cis_first,
        sum(weights.weight * cells.n_transgender_cis_first) as n_transgender_cis_first,
        sum(weights.weight * cells.n_chose_first) as n_chose_first
    from weights
    inner join cells on cells.cell_id = weights.cell_id
    group by cells.model, cells.prompt_set, cells.language, cells.discipline, cells.explanation, cells.symptoms,
             weights.replicate
),

rates as (
    select
        *,
        cast(n_transgender as {{ biasmirror.type_double() }}) / nullif(n_valid, 0) as trans_rate,
        cast(n_transgender_trans_first as {{ biasmirror.type_double() }}) / nullif(n_valid_trans_first, 0) as trans_rate_trans_first,
        cast(n_transgender_cis_first as {{ biasmirror.type_double() }}) / nullif(n_valid_cis_first, 0) as trans_rate_cis_first,
        cast(n_chose_first as {{ biasmirror.type_double() }}) / nullif(n_valid, 0) as first_position_rate
    from sums
)

select
    *,
    trans_rate_trans_first - trans_rate_cis_first as order_effect
from rates
