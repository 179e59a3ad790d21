{#- ref() and source() render relations without their database (catalog): "audit"."pair_outcomes", not
    "biasmirror"."audit"."pair_outcomes". DuckDB stores a view's SQL as written and binds its schema.table names
    in the view's own catalog, so the warehouse file stays portable: a copy, a renamed file and
    `ATTACH 'file' AS other` all answer every view. In a unit test, where ref() stands for a fixture, the
    builtin's answer is passed through unchanged. -#}
{% macro ref() %}
  {%- set relation = builtins.ref(*varargs, **kwargs) -%}
  {%- if relation is string or relation.include is not defined -%}{{ return(relation) }}{%- endif -%}
  {{ return(relation.include(database=False)) }}
{% endmacro %}

{% macro source() %}
  {%- set relation = builtins.source(*varargs, **kwargs) -%}
  {%- if relation is string or relation.include is not defined -%}{{ return(relation) }}{%- endif -%}
  {{ return(relation.include(database=False)) }}
{% endmacro %}
