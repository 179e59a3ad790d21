{#- Maps from text keys to text values (the strata of a pair in audit.pair_outcomes). -#}

{#- Aggregate: one map per group from its (key, value) rows; keys are unique within a group. DuckDB: a MAP, its
    entries sorted; PostgreSQL: a jsonb object (its keys are sorted by jsonb itself). -#}
{% macro string_map_agg(key_expr, value_expr) -%}
  {{ return(adapter.dispatch('string_map_agg', 'biasmirror')(key_expr, value_expr)) }}
{%- endmacro %}
{% macro duckdb__string_map_agg(key_expr, value_expr) -%}
  map_from_entries({{ biasmirror.sorted_list_agg("{'key': " ~ key_expr ~ ", 'value': " ~ value_expr ~ "}") }})
{%- endmacro %}
{% macro postgres__string_map_agg(key_expr, value_expr) -%}
  jsonb_object_agg({{ key_expr }}, {{ value_expr }})
{%- endmacro %}

{#- The empty map. -#}
{% macro empty_string_map() -%}
  {{ return(adapter.dispatch('empty_string_map', 'biasmirror')()) }}
{%- endmacro %}
{% macro duckdb__empty_string_map() -%}
  map()
{%- endmacro %}
{% macro postgres__empty_string_map() -%}
  cast('{}' as jsonb)
{%- endmacro %}
{#- Spark: a map<string, string> built from its entries sorted by key. -#}
{% macro spark__string_map_agg(key_expr, value_expr) -%}
  map_from_entries(array_sort(collect_list(struct({{ key_expr }} as key, {{ value_expr }} as value))))
{%- endmacro %}
{% macro spark__empty_string_map() -%}
  cast(map() as map<string, string>)
{%- endmacro %}
