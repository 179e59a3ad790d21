select
    dataset,
    model,
    input_id,
    repeat_number,
    predicted_level,
    expected_level,
    p_level_1,
    p_level_2,
    p_level_3,
    p_level_4,
    p_level_5,
    batch_size,
    order_seed,
    run_id,
    predicted_at
from {{ source('inference', 'prediction_repeats') }}
