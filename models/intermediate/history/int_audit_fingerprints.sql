-- What a build's headline rows are stored with (inference.audit_history), so that a trend can tell a new model
-- or a data refresh from noise: a digest of the pairs (ids and the three levels) per data set, model, generator
-- and setting, and a digest of the runs that wrote the model's predictions or imported its pairs. Both are
-- set digests: row order and threads never change them, and they are the same on both engines.

with pairs as (
    select
        dataset,
        model,
        generator,
        setting,
        count(*) as n_pairs,
        {{ set_digest("pair_id || '|' || cast(original_level as " ~ type_text() ~ ") || '|' || cast(counterfactual_level as " ~ type_text() ~ ")"
                      " || '|' || coalesce(cast(true_level as " ~ type_text() ~ "), '')") }} as data_fingerprint
    from {{ ref('int_pairs_unioned') }}
    group by dataset, model, generator, setting
),

model_runs as (
    select dataset, model, run_id from {{ ref('stg_inference__predictions') }}
    union
    select dataset, model, import_id as run_id from {{ ref('stg_inference__imported_pairs') }}
),

model_fingerprints as (
    select
        dataset,
        model,
        {{ set_digest('run_id') }} as model_fingerprint
    from model_runs
    group by dataset, model
)

select
    pairs.dataset,
    pairs.model,
    pairs.generator,
    pairs.setting,
    pairs.n_pairs,
    pairs.data_fingerprint,
    model_fingerprints.model_fingerprint
from pairs
left join model_fingerprints
    on pairs.dataset = model_fingerprints.dataset and pairs.model = model_fingerprints.model
