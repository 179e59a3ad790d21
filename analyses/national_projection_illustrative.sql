-- ILLUSTRATIVE ONLY - as in the study, which projects its pooled rate "with reservation" and "as an illustration
-- only": annual emergency visits x share of visits by women x pooled rate (full setting, all pairs), with the
-- range from the pooled rate's 95% interval. The study's figures for France: 20.9 million visits, 48% women,
-- pooled rate 1.09% [0.89, 1.29] -> about 110,000 [90,000, 130,000] additional lower-severity assignments for
-- women per year. It multiplies a very small marginal model effect by a very large denominator: it is NOT a count
-- of harmed patients, and it assumes, without evidence, that a documentation-level, model-predicted shift would
-- transfer unchanged to bedside care. Set the vars projection_annual_visits and projection_female_share for
-- another country (defaults: the study's French figures).

{%- set visits = var('projection_annual_visits', 20900000) %}
{%- set female_share = var('projection_female_share', 0.48) %}

select
    dataset,
    model,
    generator,
    setting,
    {{ visits }} as annual_visits,
    {{ female_share }} as female_share,
    estimate as pooled_rate,
    ci_low as pooled_rate_ci_low,
    ci_high as pooled_rate_ci_high,
    {{ visits }} * {{ female_share }} * estimate as illustrative_additional_lower_severity_assignments,
    {{ visits }} * {{ female_share }} * ci_low as illustrative_range_low,
    {{ visits }} * {{ female_share }} * ci_high as illustrative_range_high,
    'Illustration only: not a count of harmed patients; assumes, without evidence, that a documentation-level, '
    || 'model-predicted shift would transfer unchanged to bedside care.' as caveat
from {{ ref('paired_metrics') }}
where stratum_name = 'overall'
  and metric = 'pooled_rate'
  and setting = 'full'
order by dataset, model, generator
