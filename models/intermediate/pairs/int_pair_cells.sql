-- Each pair mapped to its "cell": the pairs of a cell share model, setting, direction, both levels and every
-- stratum, so every paired metric of every stratum is a function of weighted cell counts. The bootstrap sums
-- resampling weights per cell (int_pair_bootstrap_weights) instead of per pair and stratum.

with pairs as (
    select * from {{ ref('int_pairs_unioned') }}
),

signatures as (
    select
        dataset, model, generator, setting, pair_id,
        string_agg(stratum_name || '=' || stratum_value, chr(31) order by stratum_name) as strata_signature
    from {{ ref('int_pair_strata') }}
    group by all
)

select
    pairs.dataset,
    pairs.model,
    pairs.generator,
    pairs.setting,
    pairs.pair_id,
    pairs.unit_key,
    dense_rank() over (
        order by pairs.dataset, pairs.model, pairs.generator, pairs.setting, pairs.direction,
                 pairs.original_level, pairs.counterfactual_level, signatures.strata_signature
    ) as cell_id
from pairs
inner join signatures using (dataset, model, generator, setting, pair_id)
