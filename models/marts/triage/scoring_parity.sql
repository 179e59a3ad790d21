-- Scoring parity in the open, per data set, model and scoring run: how far label-probability scoring (one
-- forward pass, the argmax of the label tokens' probabilities renormalised over the levels) agrees with the
-- study's inference (greedy generation of two tokens, then the first integer), on the run's parity sample
-- (inference.scoring_parity_checks); the share of generations that did not parse as a level; and the
-- probability mass the model put on the label tokens before renormalisation, over every prediction of the run
-- (inference.predictions.label_mass). Runs of models without label tokens (classifiers) have no row.
--
-- agreement_ci_low/high: the Wilson score interval at 95% (z = 1.959964) for the sample's agreement,
--   (p + z^2/2n -/+ z sqrt(p(1 - p)/n + z^2/4n^2)) / (1 + z^2/n),
-- which stays inside [0, 1] and is not degenerate when every sampled input agrees.

{%- set z = 1.959964 %}

with checks as (
    select
        dataset, model, run_id,
        count(*) as n_checked,
        sum(case when generated_level = scored_level then 1 else 0 end) as n_agreeing,
        sum(case when generated_level is null then 1 else 0 end) as n_unparseable,
        avg(label_mass) as sample_mean_label_mass
    from {{ ref('stg_inference__scoring_parity_checks') }}
    group by dataset, model, run_id
),

masses as (
    select
        dataset, model, run_id,
        count(*) as n_scored,
        count(label_mass) as n_with_label_mass,
        avg(label_mass) as mean_label_mass,
        min(label_mass) as min_label_mass,
        avg(case when label_mass < 0.5 then 1 when label_mass is not null then 0 end) as low_label_mass_share
    from {{ ref('stg_inference__predictions') }}
    group by dataset, model, run_id
),

runs as (
    select
        coalesce(checks.dataset, masses.dataset) as dataset,
        coalesce(checks.model, masses.model) as model,
        coalesce(checks.run_id, masses.run_id) as run_id,
        coalesce(masses.n_scored, 0) as n_scored,
        coalesce(checks.n_checked, 0) as n_checked,
        coalesce(checks.n_agreeing, 0) as n_agreeing,
        coalesce(checks.n_unparseable, 0) as n_unparseable,
        checks.sample_mean_label_mass,
        coalesce(masses.n_with_label_mass, 0) as n_with_label_mass,
        masses.mean_label_mass,
        masses.min_label_mass,
        masses.low_label_mass_share
    from checks
    full outer join masses
        on masses.dataset = checks.dataset
        and masses.model = checks.model
        and masses.run_id = checks.run_id
),

rated as (
    select
        *,
        cast(n_agreeing as {{ biasmirror.type_double() }}) / nullif(n_checked, 0) as agreement,
        cast(n_unparseable as {{ biasmirror.type_double() }}) / nullif(n_checked, 0) as unparseable_share
    from runs
    where n_checked > 0 or n_with_label_mass > 0
)

select
    dataset,
    model,
    run_id,
    n_scored,
    n_checked,
    n_agreeing,
    agreement,
    case when n_checked > 0 then
        (agreement + {{ z }} * {{ z }} / (2.0 * n_checked)
         - {{ z }} * sqrt(agreement * (1 - agreement) / n_checked + {{ z }} * {{ z }} / (4.0 * n_checked * n_checked)))
        / (1 + {{ z }} * {{ z }} / n_checked)
    end as agreement_ci_low,
    case when n_checked > 0 then
        (agreement + {{ z }} * {{ z }} / (2.0 * n_checked)
         + {{ z }} * sqrt(agreement * (1 - agreement) / n_checked + {{ z }} * {{ z }} / (4.0 * n_checked * n_checked)))
        / (1 + {{ z }} * {{ z }} / n_checked)
    end as agreement_ci_high,
    n_unparseable,
    unparseable_share,
    sample_mean_label_mass,
    n_with_label_mass,
    mean_label_mass,
    min_label_mass,
    low_label_mass_share
from rated
