-- The acuity odds ratio (docs/metrics.md, "Acuity odds ratio"; macro acuity_odds_ratio_expressions) per data
-- set, model, generator, setting and stratum: among changed pairs, the odds of an up move (the copy less severe)
-- rather than a down move, female originals presented as male over male originals presented as female. Its
-- interval is the percentile interval over the same replicates as audit.paired_metrics
-- (int_paired_metric_replicates). Zero cells: Haldane-Anscombe 0.5 correction, flagged and counted; an empty
-- margin gives no value, with the reason, and is counted too - no replicate is dropped without a count.

{%- set odds = acuity_odds_ratio_expressions() %}
{%- set groups = ['dataset', 'model', 'generator', 'setting', 'stratum_name', 'stratum_value'] %}
{%- set alpha = bootstrap_config().alpha %}

with replicates as (
    select
        {{ groups | join(', ') }},
        replicate,
        n_pairs_w,
        up_f_to_m, down_f_to_m, up_m_to_f, down_m_to_f,
        {{ odds.odds_ratio }} as odds_ratio,
        {{ odds.zero_cell_corrected }} as zero_cell_corrected,
        {{ odds.undefined_reason }} as undefined_reason
    from {{ ref('int_paired_metric_replicates') }}
),

summary as (
    select
        {{ groups | join(', ') }},
        cast(max(case when replicate = -1 then n_pairs_w end) as bigint) as n_pairs,
        cast(max(case when replicate = -1 then up_f_to_m end) as bigint) as n_up_f_to_m,
        cast(max(case when replicate = -1 then down_f_to_m end) as bigint) as n_down_f_to_m,
        cast(max(case when replicate = -1 then up_m_to_f end) as bigint) as n_up_m_to_f,
        cast(max(case when replicate = -1 then down_m_to_f end) as bigint) as n_down_m_to_f,
        max(case when replicate = -1 then odds_ratio end) as odds_ratio,
        bool_or(replicate = -1 and zero_cell_corrected) as zero_cell_corrected,
        max(case when replicate = -1 then undefined_reason end) as undefined_reason,
        {{ quantile_cont_bounds('case when replicate >= 0 then odds_ratio end', alpha / 2, 1 - alpha / 2) }} as bounds,
        count(case when replicate >= 0 and odds_ratio is not null then 1 end) as n_boot,
        count(case when replicate >= 0 and zero_cell_corrected then 1 end) as n_boot_zero_cell
    from replicates
    group by {{ groups | join(', ') }}
)

select
    {{ groups | join(', ') }},
    odds_ratio,
    {{ list_item("bounds", 1) }} as ci_low,
    {{ list_item("bounds", 2) }} as ci_high,
    n_pairs,
    n_up_f_to_m,
    n_down_f_to_m,
    n_up_m_to_f,
    n_down_m_to_f,
    n_up_f_to_m + n_down_f_to_m + n_up_m_to_f + n_down_m_to_f as n_changed,
    least(n_up_f_to_m, n_down_f_to_m, n_up_m_to_f, n_down_m_to_f) as min_cell,
    zero_cell_corrected,
    undefined_reason,
    n_boot,
    n_boot_zero_cell,
    -- an empty margin, or (in a tiny stratum) a replicate that drew no pair at all: no value either way
    {{ bootstrap_config().n_boot }} - n_boot as n_boot_undefined,
    n_pairs < {{ var('min_stratum_pairs') }} as is_small_stratum,
    ({{ sparse_interval_flag('least(n_up_f_to_m, n_down_f_to_m, n_up_m_to_f, n_down_m_to_f)', list_item("bounds", 1), list_item("bounds", 2)) }}
     or zero_cell_corrected or n_boot_zero_cell > 0 or n_boot < {{ bootstrap_config().n_boot }}) as is_sparse
from summary
