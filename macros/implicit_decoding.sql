{#- How an implicit-bias answer was decoded: 'constrained' (the backend forced the answer's form), 'free', or
    'unknown' for imported answers, whose decoding the importer cannot know. One definition for both response
    tables, so that the association and allocation marts split by the same categories. -#}
{% macro implicit_decoding(source_column='source', constrained_column='constrained') -%}
    case
        when {{ source_column }} = 'imported' then 'unknown'
        when coalesce({{ constrained_column }}, false) then 'constrained'
        else 'free'
    end
{%- endmacro %}
