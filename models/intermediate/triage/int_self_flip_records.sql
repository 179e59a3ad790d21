-- Each test original (per setting) a model scored twice: in its scoring run and again in a different batch
-- composition (inference.prediction_repeats, repeat 1). flipped = 1 when the two predicted levels differ.
-- unit_key (a hash of the seed, data set and record id) drives one Poisson(1) draw per record and replicate in
-- audit.noise_floor. It resamples records, as the pair bootstrap does with bootstrap_unit 'pair', but the draws are
-- not those of audit.paired_metrics (one Poisson(n) per joint cell): the noise floor's and the PDR's replicates are
-- independent, not coupled.

with first_scoring as (
    select dataset, model, record_id, setting, input_id, predicted_level, expected_level
    from {{ ref('int_scored_inputs') }}
    where variant = 'original'
),

repeats as (
    select dataset, model, input_id, predicted_level, expected_level
    from {{ ref('stg_inference__prediction_repeats') }}
    where repeat_number = 1
),

records as (
    select
        first_scoring.dataset,
        first_scoring.model,
        first_scoring.setting,
        first_scoring.record_id,
        first_scoring.predicted_level as first_level,
        repeats.predicted_level as repeat_level,
        case when first_scoring.predicted_level <> repeats.predicted_level then 1 else 0 end as flipped,
        abs(first_scoring.expected_level - repeats.expected_level) as abs_expected_change,
        {{ resample_key("first_scoring.dataset || '|' || first_scoring.record_id") }} as unit_key
    from first_scoring
    inner join repeats
        on repeats.dataset = first_scoring.dataset
        and repeats.model = first_scoring.model
        and repeats.input_id = first_scoring.input_id
)

select * from records
