{#- Fails once per value of the key columns that comes with more than one value of `columns` (e.g. a pair that
    two imports assign to two different patients). -#}
{% test determined_by(model, key, columns) %}
select {{ key | join(', ') }}, count(distinct {{ columns | join(" || '|' || ") }}) as n_values
from {{ model }}
group by {{ key | join(', ') }}
having count(distinct {{ columns | join(" || '|' || ") }}) > 1
{% endtest %}
