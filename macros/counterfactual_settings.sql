{#- The three settings of the triage study (docs/triage-study.md, "The three settings"): what the model is shown.
    full: the sex field (flipped in the copy) and the texts (rewritten in the copy);
    text_only: no sex field, the texts (rewritten in the copy);
    tabular_only: the sex field (flipped in the copy), no texts. -#}
{% macro counterfactual_settings() %}
  {{ return({
    'full': {'shows_sex': true, 'shows_text': true},
    'text_only': {'shows_sex': false, 'shows_text': true},
    'tabular_only': {'shows_sex': true, 'shows_text': false}
  }) }}
{% endmacro %}
