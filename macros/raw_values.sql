{#- The grammar of raw values (dbt_project.yml: sources: biasmirror: +meta: raw_value_grammar), shared by the
    pre-build check (validate_raw_sources), staging (raw_number, raw_timestamp) and, in Python, `biasmirror check`
    (biasmirror.quality.raw and .redaction read the same YAML). -#}

{#- The grammar, from any file-based source's meta (the project-level source config puts it on every source). -#}
{% macro raw_value_grammar() %}
  {%- if execute -%}
    {%- for node in graph.sources.values() if node.meta.get('raw_value_grammar') -%}
      {{ return(node.meta['raw_value_grammar']) }}
    {%- endfor -%}
    {{ exceptions.raise_compiler_error("dbt_project.yml lacks sources: biasmirror: +meta: raw_value_grammar") }}
  {%- endif -%}
  {{ return({'number': '^$', 'timestamp': '^$', 'quotable': {}}) }}
{% endmacro %}

{#- A text value (already trimmed, empty as null) as a double when it follows the number grammar (a decimal comma
    is read as a point), else null. -#}
{% macro raw_number(value) -%}
  case when {{ biasmirror.regex_matches(value, biasmirror.sql_string(biasmirror.raw_value_grammar().number)) }}
    then {{ biasmirror.try_cast_text("replace(" ~ value ~ ", ',', '.')", 'double') }} end
{%- endmacro %}

{#- A text value as a timestamp (or date) when it follows the timestamp grammar and is a real date, else null. -#}
{% macro raw_timestamp(value, data_type='timestamp') -%}
  case when {{ biasmirror.regex_matches(value, biasmirror.sql_string(biasmirror.raw_value_grammar().timestamp)) }}
    then {{ biasmirror.try_cast_text(value, data_type) }} end
{%- endmacro %}

{#- How a raw value may appear in a message (the rule of biasmirror.quality.redaction): quoted when its column is
    coded (kind id, code, number, timestamp) and the value has the quotable shape of that kind; otherwise only its
    length. Free-text columns are never quoted. -#}
{% macro raw_value_display(value, kind) -%}
  {%- set pattern = biasmirror.raw_value_grammar().quotable.get(kind) if kind in ('id', 'code', 'number', 'timestamp') else none -%}
  case
    when {{ value }} is null then 'empty'
    {%- if pattern %}
    when {{ biasmirror.regex_matches(value, biasmirror.sql_string(pattern)) }} then '''' || {{ value }} || ''''
    {%- endif %}
    when length({{ value }}) = 1 then 'a text of 1 character'
    else 'a text of ' || cast(length({{ value }}) as {{ biasmirror.type_text() }}) || ' characters'
  end
{%- endmacro %}

{#- A column name read from a file's header (a file without a header row has data in its first line). -#}
{% macro raw_header_display(name) %}
  {%- if modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_ .-]{0,63}', name | string) -%}{{ return(name | string) }}{%- endif -%}
  {%- set length = name | string | length -%}
  {{ return('a text of ' ~ length ~ (' character' if length == 1 else ' characters')) }}
{% endmacro %}
