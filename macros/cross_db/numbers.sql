{#- Numbers whose rounding, text form or date parts differ between engines. -#}

{#- round(expr, digits) of a double, halves away from zero (DuckDB's round; PostgreSQL rounds a double's halves
    to even, its numeric's away from zero). digits none: to an integer value. -#}
{% macro round_half_away(expr, digits=none) -%}
  {{ return(adapter.dispatch('round_half_away', 'biasmirror')(expr, digits)) }}
{%- endmacro %}
{% macro duckdb__round_half_away(expr, digits) -%}
  round({{ expr }}{% if digits is not none %}, {{ digits }}{% endif %})
{%- endmacro %}
{% macro postgres__round_half_away(expr, digits) -%}
  cast(round(cast({{ expr }} as numeric){% if digits is not none %}, {{ digits }}{% endif %}) as double precision)
{%- endmacro %}

{#- A double as text, as DuckDB writes it (shortest form that reads back the same, with '.0' on whole numbers):
    model inputs are texts, and their ids are digests of them, so both engines must write them alike. -#}
{% macro double_to_text(expr) -%}
  {{ return(adapter.dispatch('double_to_text', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__double_to_text(expr) -%}
  cast({{ expr }} as varchar)
{%- endmacro %}
{% macro postgres__double_to_text(expr) -%}
  (case when ({{ expr }}) = trunc({{ expr }}) and abs({{ expr }}) < 1e15
        then cast(cast({{ expr }} as bigint) as text) || '.0'
        else cast({{ expr }} as text) end)
{%- endmacro %}

{#- The calendar year of a date or timestamp, as an integer. -#}
{% macro year_of(expr) -%}
  {{ return(adapter.dispatch('year_of', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__year_of(expr) -%}
  year({{ expr }})
{%- endmacro %}
{% macro postgres__year_of(expr) -%}
  cast(extract(year from {{ expr }}) as bigint)
{%- endmacro %}

{#- exp(x), and 0 where it underflows: DuckDB gives 0 there, PostgreSQL stops with "value out of range: underflow"
    below about -745 (tails of binomial sums, far tails of erfc). -#}
{% macro exp_or_zero(expr) -%}
  {{ return(adapter.dispatch('exp_or_zero', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__exp_or_zero(expr) -%}
  exp({{ expr }})
{%- endmacro %}
{% macro postgres__exp_or_zero(expr) -%}
  (case when ({{ expr }}) < -745.0 then 0.0 else exp({{ expr }}) end)
{%- endmacro %}
{#- Spark's round rounds a double's halves away from zero (HALF_UP on its decimal form). -#}
{% macro spark__round_half_away(expr, digits) -%}
  cast(round({{ expr }}{% if digits is not none %}, {{ digits }}{% endif %}) as double)
{%- endmacro %}
{#- Spark writes doubles in Java's form (1.0E7): whole numbers are written as DuckDB does, as on PostgreSQL. -#}
{% macro spark__double_to_text(expr) -%}
  (case when ({{ expr }}) = floor({{ expr }}) and abs({{ expr }}) < 1e15
        then cast(cast({{ expr }} as bigint) as string) || '.0'
        else cast({{ expr }} as string) end)
{%- endmacro %}
{% macro spark__year_of(expr) -%}
  cast(year({{ expr }}) as bigint)
{%- endmacro %}
{#- Java's exp underflows to 0, as DuckDB's. -#}
{% macro spark__exp_or_zero(expr) -%}
  exp({{ expr }})
{%- endmacro %}
