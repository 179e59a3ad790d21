-- Resampling weight of every cell of the paired metrics in every bootstrap replicate (replicate -1: the observed
-- counts). Each group (data set, model, generator, setting) and stratum is resampled on its own, so a group's
-- joint cells are its cells (pairs resampled alone: one Poisson(n) draw per cell) plus one per distinct multiset
-- of cells of its patients (a patient's pairs resampled together). Differences between groups are bootstrapped
-- per comparison instead (int_comparison_joint_cells). A view: read once, by int_paired_metric_replicates.

{{ config(materialized='view') }}

with patient_rows as (
    select members.unit_key, members.group_id, members.stratum_id, cells.cell_id
    from {{ ref('int_pair_members') }} as members
    inner join {{ ref('int_pair_cells') }} as cells
        on cells.group_id = members.group_id
        and cells.stratum_id = members.stratum_id
        and cells.direction = members.direction
        and cells.delta = members.delta
    where not members.unit_is_pair
),

single_counts as (
    select cell_id, n_single_pairs as n_single from {{ ref('int_pair_cells') }}
)

select * from (
    {{ bootstrap_cell_weights('patient_rows', unit_columns=['unit_key', 'group_id', 'stratum_id'],
                              single_counts='single_counts', salt='paired_metrics') | indent(4) }}
) as weights
