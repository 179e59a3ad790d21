{#- Type names that differ between engines. -#}

{#- 64-bit floating point: DuckDB's `double`, PostgreSQL's `double precision`. -#}
{% macro type_double() -%}
  {{ return(adapter.dispatch('type_double', 'biasmirror')()) }}
{%- endmacro %}
{% macro duckdb__type_double() -%}
  {{ return('double') }}
{%- endmacro %}
{% macro postgres__type_double() -%}
  {{ return('double precision') }}
{%- endmacro %}

{#- The smallest integer type (codes, level changes): DuckDB's 1-byte tinyint, PostgreSQL's 2-byte smallint. -#}
{% macro type_tiny_int() -%}
  {{ return(adapter.dispatch('type_tiny_int', 'biasmirror')()) }}
{%- endmacro %}
{% macro duckdb__type_tiny_int() -%}
  {{ return('tinyint') }}
{%- endmacro %}
{% macro postgres__type_tiny_int() -%}
  {{ return('smallint') }}
{%- endmacro %}

{#- A column type of the inference contract (models/staging/inference/_inference__sources.yml, written in DuckDB's
    names) in the engine's name. -#}
{% macro contract_type(data_type) -%}
  {{ return(adapter.dispatch('contract_type', 'biasmirror')(data_type)) }}
{%- endmacro %}
{% macro duckdb__contract_type(data_type) -%}
  {{ return(data_type) }}
{%- endmacro %}
{% macro postgres__contract_type(data_type) -%}
  {{ return({'double': 'double precision', 'varchar': 'text'}.get(data_type | lower, data_type)) }}
{%- endmacro %}

{#- cast(expr as type), or null where the text is not a valid value of the type (DuckDB's try_cast). -#}
{% macro try_cast_text(expr, data_type) -%}
  {{ return(adapter.dispatch('try_cast_text', 'biasmirror')(expr, data_type)) }}
{%- endmacro %}
{% macro duckdb__try_cast_text(expr, data_type) -%}
  try_cast({{ expr }} as {{ data_type }})
{%- endmacro %}
{#- PostgreSQL has no try_cast: a text is cast only when it has the shape of the type (numbers; ISO dates and
    timestamps, which the pre-build check or the loading database has already checked to be real dates). -#}
{% macro postgres__try_cast_text(expr, data_type) -%}
  {%- set t = data_type | lower -%}
  {%- if t in ('bigint', 'integer', 'int', 'smallint') -%}
    {%- set pattern = '^\\s*[+-]?[0-9]+\\s*$' -%}
  {%- elif t in ('double', 'double precision', 'float', 'real', 'numeric') -%}
    {%- set pattern = '^\\s*[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?\\s*$' -%}
  {%- elif t == 'date' -%}
    {%- set pattern = '^\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\\s*$' -%}
  {%- elif t == 'timestamp' -%}
    {%- set pattern = '^\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?)?\\s*$' -%}
  {%- else -%}
    {{ exceptions.raise_compiler_error("try_cast_text: no PostgreSQL rule for type " ~ data_type) }}
  {%- endif -%}
  case when cast({{ expr }} as text) ~ '{{ pattern }}' then cast(cast({{ expr }} as text) as {{ biasmirror.type_double() if t == 'double' else t }}) end
{%- endmacro %}
{% macro spark__type_double() -%}
  {{ return('double') }}
{%- endmacro %}
{% macro spark__type_tiny_int() -%}
  {{ return('tinyint') }}
{%- endmacro %}
{#- Spark's text type is string (its varchar needs a length) -#}
{% macro spark__contract_type(data_type) -%}
  {{ return({'varchar': 'string', 'text': 'string', 'json': 'string'}.get(data_type | lower, data_type)) }}
{%- endmacro %}
{% macro spark__try_cast_text(expr, data_type) -%}
  try_cast({{ expr }} as {{ data_type }})
{%- endmacro %}

{#- The text type in a cast: varchar (DuckDB, PostgreSQL); Spark's varchar needs a length, its text type is string. -#}
{% macro type_text() -%}
  {{ return(adapter.dispatch('type_text', 'biasmirror')()) }}
{%- endmacro %}
{% macro default__type_text() -%}
  {{ return('varchar') }}
{%- endmacro %}
{% macro spark__type_text() -%}
  {{ return('string') }}
{%- endmacro %}
