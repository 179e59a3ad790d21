select
    dataset,
    model,
    input_id,
    predicted_level,
    expected_level,
    p_level_1,
    p_level_2,
    p_level_3,
    p_level_4,
    p_level_5,
    run_id,
    predicted_at,
    label_mass
from {{ source('inference', 'predictions') }}
