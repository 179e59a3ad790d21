select
    dataset,
    model,
    setting,
    pair_id,
    stratum_name,
    stratum_value
from {{ source('inference', 'imported_pair_strata') }}
