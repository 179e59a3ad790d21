{#- Fails once per value of the key columns that comes with more than one value of `column` (e.g. a pair that two
    imports assign to two different patients). min <> max rather than count(distinct): one pass, no sets. -#}
{% test determined_by(model, key, column) %}
select {{ key | join(', ') }}, min({{ column }}) as one_value, max({{ column }}) as another_value
from {{ model }}
group by {{ key | join(', ') }}
having min({{ column }}) <> max({{ column }})
{% endtest %}
