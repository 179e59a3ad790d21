{#- Weighted sums of per-unit values for every bootstrap replicate, without materialising the weights.

    For metrics that are means of a continuous per-unit value (a shift of expected level, a change of
    probability), units cannot be grouped into a few cells. This macro draws one Poisson(1) multiplicity per unit
    and replicate (bootstrap_weight of the unit's resample_key and the replicate: the same in every group, so
    groups are resampled as paired) and sums, per group and replicate, the weight (n_w) and weight x value
    (sum_<value>) of each value column; it costs O(B x units). replicate = -1 holds the observed sums. `units`
    has columns unit_key, the group columns and the value columns. -#}

{% macro bootstrap_unit_sums(units, group_columns, value_columns) -%}
  {%- set cfg = biasmirror.bootstrap_config() -%}
  {%- set groups = group_columns | join(', ') -%}
  select {{ groups }}, -1 as replicate, cast(count(*) as {{ biasmirror.type_double() }}) as n_w
         {%- for value in value_columns %}, sum({{ value }}) as sum_{{ value }}{% endfor %}
  from {{ units }}
  group by {{ groups }}
  union all
  select {{ groups }}, replicate, cast(sum(weight) as {{ biasmirror.type_double() }}) as n_w
         {%- for value in value_columns %}, sum(weight * {{ value }}) as sum_{{ value }}{% endfor %}
  from (
      select u.*, r.replicate, {{ biasmirror.bootstrap_weight('u.unit_key', 'r.replicate') }} as weight
      from {{ units }} as u
      cross join {{ biasmirror.integer_series(cfg.n_boot, 'replicate') }} as r
  ) as weighted
  group by {{ groups }}, replicate
{%- endmacro %}
