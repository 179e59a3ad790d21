{#- Fails on every row where the expression is false (nulls count as false unless allow_null). -#}
{% test expression_is_true(model, expression, where_clause=none) %}
select *
from {{ model }}
where not coalesce(({{ expression }}), false)
{%- if where_clause %} and ({{ where_clause }}){% endif %}
{% endtest %}
