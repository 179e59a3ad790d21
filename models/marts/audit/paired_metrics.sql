-- The paired metrics of docs/metrics.md with percentile bootstrap confidence intervals (pairs
-- resampled), one row per data set, model, generator, setting, stratum and metric.

with summary as (
    {{ summarise_replicates(ref('int_paired_metric_replicates'),
                            ['dataset', 'model', 'generator', 'setting', 'stratum_name', 'stratum_value'],
                            paired_metric_expressions().keys() | list, 'n_pairs_w', 'n_pairs') | indent(4) }}
)

select
    summary.*,
    summary.n_pairs < {{ var('min_stratum_pairs') }} as is_small_stratum
from summary
