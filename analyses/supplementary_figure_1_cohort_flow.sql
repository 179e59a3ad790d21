-- The study's Supplementary Figures 1 and 2 (cohort flowcharts): records left after each filtering step per data
-- set, then the train/test split. Steps that removed nothing are kept so that every data set lists its steps.

select dataset, step_order, step, description, n_excluded, n_remaining
from {{ ref('cohort_flow') }}
order by dataset, step_order
