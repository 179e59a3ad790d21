-- The audit of each data set, model, generator and setting across the builds that recorded it
-- (inference.audit_history): one row per build and paired metric, numbered in build order, with the change from
-- the previous build and whether the pairs or the model's runs changed in between - a moved estimate with the
-- same fingerprints is resampling or a changed var (bootstrap_resamples, seed), not the model.

with history as (
    select * from {{ ref('stg_inference__audit_history') }}
),

builds as (
    select invocation_id, published from {{ source('inference', 'dbt_builds') }}
),

ordered as (
    select
        *,
        row_number() over (
            partition by dataset, model, generator, setting, metric order by built_at, invocation_id
        ) as build_number,
        lag(estimate) over (
            partition by dataset, model, generator, setting, metric order by built_at, invocation_id
        ) as previous_estimate,
        lag(data_fingerprint) over (
            partition by dataset, model, generator, setting, metric order by built_at, invocation_id
        ) as previous_data_fingerprint,
        lag(model_fingerprint) over (
            partition by dataset, model, generator, setting, metric order by built_at, invocation_id
        ) as previous_model_fingerprint
    from history
)

select
    ordered.dataset,
    ordered.model,
    ordered.generator,
    ordered.setting,
    ordered.metric,
    ordered.build_number,
    ordered.invocation_id,
    ordered.built_at,
    builds.published,
    ordered.estimate,
    ordered.ci_low,
    ordered.ci_high,
    ordered.p_value,
    ordered.q_value,
    ordered.mde,
    ordered.n_pairs,
    ordered.n_changed,
    ordered.n_boot,
    ordered.is_sparse,
    ordered.estimate - ordered.previous_estimate as change_from_previous,
    ordered.previous_data_fingerprint is not null
    and ordered.data_fingerprint != ordered.previous_data_fingerprint as data_changed,
    ordered.previous_model_fingerprint is not null
    and ordered.model_fingerprint != ordered.previous_model_fingerprint as model_changed,
    ordered.data_fingerprint,
    ordered.model_fingerprint,
    ordered.metric_order
from ordered
left join builds on ordered.invocation_id = builds.invocation_id
