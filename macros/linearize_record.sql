{#- The model input of the triage study: each tabular field as a "variable: value" line, then the texts.
    Used for every model input (training, originals and counterfactuals in all settings), so the only
    difference between an original and its copy is what the setting changes.

    sex: a SQL expression for the sex to show (F or M), or none to leave the sex line out (text_only).
    include_text: false to leave the free texts out (tabular_only).
    hpi, pmh: SQL expressions for the texts (the original's or the counterfactual's).
    Labels follow the record's `language` column. Null values are left out. -#}

{% macro linearization_labels() %}
  {{ return({
    'en': {'age': 'age', 'sex': 'sex', 'female': 'female', 'male': 'male', 'arrival_mode': 'arrival mode',
           'temperature_c': 'temperature (C)', 'heart_rate': 'heart rate', 'resp_rate': 'respiratory rate',
           'o2_saturation': 'oxygen saturation (%)', 'blood_pressure': 'blood pressure', 'pain': 'pain (0-10)',
           'chief_complaint': 'chief complaint', 'chief_complaint_class': 'complaint class',
           'hpi': 'history of present illness', 'pmh': 'past medical history', 'nurse_sex': 'triage nurse sex'},
    'fr': {'age': 'âge', 'sex': 'sexe', 'female': 'femme', 'male': 'homme', 'arrival_mode': "mode d'arrivée",
           'temperature_c': 'température (°C)', 'heart_rate': 'fréquence cardiaque', 'resp_rate': 'fréquence respiratoire',
           'o2_saturation': 'saturation en oxygène (%)', 'blood_pressure': 'pression artérielle', 'pain': 'douleur (0-10)',
           'chief_complaint': 'motif de recours', 'chief_complaint_class': 'classe du motif',
           'hpi': 'histoire de la maladie', 'pmh': 'antécédents', 'nurse_sex': "sexe de l'IOA"}
  }) }}
{% endmacro %}

{#- `case language when 'en' then '<label>' ... end` for one label key. -#}
{% macro label_for_language(key) -%}
  case language
  {%- for lang, labels in biasmirror.linearization_labels().items() %} when '{{ lang }}' then {{ biasmirror.sql_string(labels[key]) }}{% endfor %} end
{%- endmacro %}

{#- One "label: value" line, or null when the value is null (concat_ws then skips it). -#}
{% macro labelled_line(key, value_sql) -%}
  case when ({{ value_sql }}) is not null then {{ biasmirror.label_for_language(key) }} || ': ' || ({{ value_sql }}) end
{%- endmacro %}

{% macro linearize_record(sex='sex', include_text=true, hpi='hpi', pmh='pmh') -%}
  {%- set lines = [biasmirror.labelled_line('age', 'cast(age as ' ~ biasmirror.type_text() ~ ')')] -%}
  {%- if sex is not none -%}
    {%- set sex_word = "case " ~ sex ~ " when 'F' then " ~ biasmirror.label_for_language('female')
                       ~ " when 'M' then " ~ biasmirror.label_for_language('male') ~ " end" -%}
    {%- do lines.append(biasmirror.labelled_line('sex', sex_word)) -%}
  {%- endif -%}
  {%- do lines.append(biasmirror.labelled_line('arrival_mode', 'arrival_mode')) -%}
  {#- The triage nurse's sex (Bordeaux) is context the study gave its model; it is never flipped. -#}
  {%- set nurse_word = "case nurse_sex when 'F' then " ~ biasmirror.label_for_language('female')
                       ~ " when 'M' then " ~ biasmirror.label_for_language('male') ~ " end" -%}
  {%- do lines.append(biasmirror.labelled_line('nurse_sex', nurse_word)) -%}
  {%- do lines.append(biasmirror.labelled_line('temperature_c', biasmirror.double_to_text(biasmirror.round_half_away('temperature_c', 1)))) -%}
  {%- do lines.append(biasmirror.labelled_line('heart_rate', 'cast(cast(' ~ biasmirror.round_half_away('heart_rate') ~ ' as integer) as ' ~ biasmirror.type_text() ~ ')')) -%}
  {%- do lines.append(biasmirror.labelled_line('resp_rate', 'cast(cast(' ~ biasmirror.round_half_away('resp_rate') ~ ' as integer) as ' ~ biasmirror.type_text() ~ ')')) -%}
  {%- do lines.append(biasmirror.labelled_line('o2_saturation', 'cast(cast(' ~ biasmirror.round_half_away('o2_saturation') ~ ' as integer) as ' ~ biasmirror.type_text() ~ ')')) -%}
  {%- do lines.append(biasmirror.labelled_line('blood_pressure', 'cast(cast(' ~ biasmirror.round_half_away('systolic_bp') ~ ' as integer) as ' ~ biasmirror.type_text() ~ ') || \'/\' || cast(cast(' ~ biasmirror.round_half_away('diastolic_bp') ~ ' as integer) as ' ~ biasmirror.type_text() ~ ')')) -%}
  {%- do lines.append(biasmirror.labelled_line('pain', 'pain_text')) -%}
  {%- do lines.append(biasmirror.labelled_line('chief_complaint_class', 'chief_complaint_class')) -%}
  {%- do lines.append(biasmirror.labelled_line('chief_complaint', 'chief_complaint')) -%}
  {%- if include_text -%}
    {%- do lines.append(biasmirror.labelled_line('hpi', hpi)) -%}
    {%- do lines.append(biasmirror.labelled_line('pmh', pmh)) -%}
  {%- endif -%}
  concat_ws(chr(10),
    {{ lines | join(',\n    ') }}
  )
{%- endmacro %}
