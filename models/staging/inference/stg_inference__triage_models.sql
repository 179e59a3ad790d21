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
    created_at
from {{ source('inference', 'triage_models') }}
