select
    dataset,
    model,
    kind,
    base_model,
    input_transform,
    parameter_count,
    trainable_parameter_count,
    hyperparameters,
    artifact_path,
    run_id,
    created_at,
    training_setting,
    scored_settings,
    seed_group,
    training_seed
from {{ source('inference', 'triage_models') }}
