{#- Fails on every row where the expression is false (a null counts as false). To test only some rows, give the
    test dbt's `where` config (config: {where: "..."}), which filters the model before the test reads it. -#}
{% test expression_is_true(model, expression) %}
select *
from {{ model }}
where not coalesce(({{ expression }}), false)
{% endtest %}
