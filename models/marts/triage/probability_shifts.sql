-- Beyond argmax flips: for every pair, the shift between its female and its male presentation of the expected
-- level (probability-weighted mean level; > 0: the female presentation is scored less severe) and of the
-- high-acuity probability P(level <= 2) (< 0: the female presentation is less likely to get level 1 or 2).
-- Means over pairs with percentile bootstrap CIs, per data set, model, generator, setting and stratum (var
-- probability_shift_strata; default overall and documented_level). Each resampling unit - the pair's patient when
-- known (var bootstrap_unit = 'patient', the default), else the pair - gets one Poisson(1) multiplicity per
-- replicate from a hash of its key (bootstrap_unit_sums), the same in every group of this mart, so a patient's
-- pairs are resampled together; these draws are independent of audit.paired_metrics' (drawn per joint cell), so
-- the two marts' replicates must not be differenced.

{%- set strata = var('probability_shift_strata', ['overall', 'documented_level']) if execute else ['overall'] %}
{%- set groups = ['dataset', 'model', 'generator', 'setting', 'stratum_name', 'stratum_value'] %}
{%- set metrics = ['expected_level_shift', 'p_high_acuity_shift'] %}

with units as (
    select
        pairs.dataset, pairs.model, pairs.generator, pairs.setting, strata.stratum_name, strata.stratum_value,
        pairs.unit_key, pairs.expected_level_shift, pairs.p_high_acuity_shift
    from {{ ref('int_pair_probabilities') }} as pairs
    inner join {{ ref('int_pair_strata') }} as strata
        on strata.dataset = pairs.dataset
        and strata.model = pairs.model
        and strata.generator = pairs.generator
        and strata.setting = pairs.setting
        and strata.pair_id = pairs.pair_id
    where strata.stratum_name in ({% for name in strata %}'{{ name }}'{{ ", " if not loop.last }}{% endfor %})
),

sums as (
    {{ bootstrap_unit_sums('units', groups, metrics) | indent(4) }}
),

replicate_metrics as (
    select
        {{ groups | join(', ') }}, replicate, n_w,
        {%- for name in metrics %}
        sum_{{ name }} / nullif(n_w, 0) as {{ name }}{{ "," if not loop.last }}
        {%- endfor %}
    from sums
),

summary as (
    {{ summarise_replicates('replicate_metrics', groups, metrics, 'n_w', 'n_pairs') | indent(4) }}
)

select * from summary
