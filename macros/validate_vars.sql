{#- on-run-start gate: every var of the project has the type and range it must have, before anything is built.

    var_rules() is the one list of the project's vars and what each allows; validate_vars() checks the effective
    value of each (dbt_project.yml's default, or --vars), and refuses a --vars name that is not a var of the
    project (a typo would otherwise be ignored). One compile error lists every problem, each naming the var, the
    value and what is allowed, e.g.
      var test_fraction = 2: allowed is a number strictly between 0 and 1 (the share of records in the test split)
    Vars given as text (e.g. from env_var) are accepted when the text is a valid value ("1000" for an integer).
    Types: integer, number, boolean, text, integer list, text list; bounds: min/max (inclusive), above/below
    (exclusive); values: the allowed texts (of a text, or the members of a text list); allow_empty: an empty list is allowed; increasing: a
    strictly increasing list;
    optional: the var may be null (no project default, or null: off) and is checked only when it has a value. -#}
{% macro var_rules() %}
  {{ return({
    'mimic_root': {'type': 'text', 'what': 'the MIMIC-IV folder (empty: none)'},
    'mimic_source': {'type': 'text', 'values': ['files', 'tables'],
                     'what': 'where MIMIC-IV is read from: the CSV.gz files under mimic_root, or the mimic-code tables'},
    'mimic_schema_prefix': {'type': 'text', 'what': 'the prefix of the mimic-code schemas (mimiciv_ -> mimiciv_ed, ...)'},
    'bordeaux_root': {'type': 'text', 'what': 'the Bordeaux extract folder (empty: none)'},
    'bordeaux_source': {'type': 'text', 'values': ['files', 'tables'],
                        'what': 'where the Bordeaux extract is read from: the file under bordeaux_root, or the table <bordeaux_schema>.visits'},
    'bordeaux_schema': {'type': 'text', 'what': 'the schema of the Bordeaux visits table (bordeaux_source: tables)'},
    'max_raw_row_drop': {'type': 'number', 'min': 0, 'max': 1,
                         'what': 'the largest share by which a raw file may shrink against the last successful build'},
    'allow_raw_shrink': {'type': 'boolean', 'what': 'let a raw file shrink, or be empty, on purpose'},
    'split_seed': {'type': 'integer', 'what': 'the seed of the train/test split'},
    'test_fraction': {'type': 'number', 'above': 0, 'below': 1, 'what': 'the share of records in the test split'},
    'bootstrap_resamples': {'type': 'integer', 'min': 1, 'max': 100000, 'what': 'the number of bootstrap replicates'},
    'bootstrap_seed': {'type': 'integer', 'what': 'the seed of the bootstrap draws'},
    'ci_level': {'type': 'number', 'above': 0, 'below': 1, 'what': 'the confidence level of the intervals'},
    'bootstrap_unit': {'type': 'text', 'values': ['patient', 'pair'], 'what': 'what the bootstrap resamples'},
    'comparison_reference_model': {'type': 'text', 'optional': true,
                                   'what': 'the model every other model is compared with (unset: every two models)'},
    'p_adjust_method': {'type': 'text', 'values': ['fdr_bh', 'holm'],
                        'what': 'the multiplicity adjustment of the q-values (Benjamini-Hochberg or Holm)'},
    'mde_power': {'type': 'number', 'above': 0, 'below': 1,
                  'what': 'the power at which the minimum detectable effect is detected'},
    'min_changed_pairs': {'type': 'integer', 'min': 1,
                          'what': 'the changed pairs below which an interval is flagged sparse'},
    'min_stratum_pairs': {'type': 'integer', 'min': 0, 'what': 'the pairs below which a stratum is flagged small'},
    'age_band_edges': {'type': 'integer list', 'min': 0, 'max': 150, 'increasing': true,
                       'what': 'the lower edges of the age bands, in years'},
    'min_term_pairs': {'type': 'integer', 'min': 1, 'what': 'the pairs a term needs to be kept'},
    'min_term_length': {'type': 'integer', 'min': 1, 'max': 100, 'what': 'the letters a term needs to be kept'},
    'term_bootstrap_resamples': {'type': 'integer', 'min': 1, 'max': 100000,
                                 'what': 'the bootstrap replicates of the term associations'},
    'term_settings': {'type': 'text list', 'values': ['full', 'text_only', 'tabular_only'],
                      'what': 'the settings of the term associations'},
    'implicit_bootstrap_resamples': {'type': 'integer', 'min': 1, 'max': 100000,
                                     'what': 'the bootstrap replicates of the implicit-bias study'},
    'probability_shift_strata': {'type': 'text list', 'optional': true,
                                 'what': 'the strata of audit.probability_shifts'},
    'projection_annual_visits': {'type': 'number', 'above': 0, 'optional': true,
                                 'what': 'the annual ED visits of the illustrative national projection'},
    'projection_female_share': {'type': 'number', 'min': 0, 'max': 1, 'optional': true,
                                'what': 'the female share of the illustrative national projection'},
    'gate_severity': {'type': 'text', 'values': ['warn', 'error'],
                      'what': 'the severity of a failed audit gate (warn: the build warns; error: it fails)'},
    'gate_max_pdr': {'type': 'number', 'min': 0, 'max': 1, 'optional': true,
                     'what': 'the PDR above which a model fails audit gate max_pdr (null: the gate is off)'},
    'gate_pooled_rate_margin': {'type': 'number', 'min': 0, 'max': 1, 'optional': true,
                                'what': 'the margin by which a pooled-rate interval may not exclude zero (null: the gate is off)'},
    'gate_on_q_values': {'type': 'boolean',
                         'what': 'judge the pooled-rate gate on the q-value instead of the interval'},
    'remember_dataset_roots': {'type': 'text list', 'values': ['mimic', 'bordeaux'], 'allow_empty': true,
                               'what': 'the data sets whose folder a successful build records'},
    'publish_warehouse': {'type': 'boolean', 'what': 'publish the working copy when the build succeeds'},
    'publish_compact_free_share': {'type': 'number', 'min': 0, 'max': 1,
                                   'what': 'the share of free blocks in the working copy above which a publish is compacted'},
    'publish_compact': {'type': 'boolean', 'what': 'compact the publish of this build whatever the free share'},
  }) }}
{% endmacro %}

{% macro validate_vars() %}
  {%- if execute -%}
    {%- set rules = biasmirror.var_rules() -%}
    {%- set problems = [] -%}
    {%- set given = invocation_args_dict.get('vars') or {} -%}
    {%- if given is mapping -%}
      {%- for name in given if name not in rules -%}
        {%- do problems.append("var " ~ name ~ " is not a var of this project; the vars are: " ~ rules.keys() | sort | join(', ')) -%}
      {%- endfor -%}
    {%- endif -%}
    {%- for name, rule in rules.items() -%}
      {%- set value = var(name, none) -%}
      {%- if value is none and rule.get('optional') -%}
      {%- else -%}
        {%- set problem = biasmirror.var_problem(value, rule) -%}
        {%- if problem -%}
          {%- do problems.append("var " ~ name ~ " = " ~ biasmirror.show_var_value(value) ~ ": allowed is " ~ problem
                                 ~ " (" ~ rule.what ~ ")") -%}
        {%- endif -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if problems -%}
      {{ exceptions.raise_compiler_error("Invalid var(s), nothing was built:\n  - " ~ problems | join("\n  - ")
          ~ "\nSet them in dbt_project.yml or with --vars '{name: value}'.") }}
    {%- endif -%}
  {%- endif -%}
  select 1 as vars_validated
{% endmacro %}

{#- A var's value as it appears in a message (vars are settings, not data; long values are cut). -#}
{% macro show_var_value(value) %}
  {%- set text = (value | tojson) if value is not none else 'null (not set)' -%}
  {{ return(text if text | length <= 80 else text[:77] ~ '...') }}
{% endmacro %}

{#- What is allowed, when the value is not allowed; '' when it is. -#}
{% macro var_problem(value, rule) %}
  {%- set kind = rule.type -%}
  {%- if kind == 'text' -%}
    {%- if rule.get('values') -%}
      {{ return('' if value is string and value in rule['values'] else 'one of ' ~ rule['values'] | join(', ')) }}
    {%- endif -%}
    {{ return('' if value is string else 'a text (a folder path, or empty)') }}
  {%- elif kind == 'boolean' -%}
    {{ return('' if biasmirror.as_boolean(value) is not none else 'true or false') }}
  {%- elif kind in ('integer', 'number') -%}
    {%- set number = biasmirror.as_number(value, kind == 'integer') -%}
    {%- set allowed = biasmirror.describe_bounds(kind, rule) -%}
    {%- if number is none -%}{{ return(allowed) }}{%- endif -%}
    {{ return('' if biasmirror.within_bounds(number, rule) else allowed) }}
  {%- elif kind in ('integer list', 'text list') -%}
    {%- set element = 'integer' if kind == 'integer list' else 'text' -%}
    {%- set allowed = ('a list of ' if rule.get('allow_empty') else 'a non-empty list of ') ~ (biasmirror.describe_bounds('integer', rule) | replace('an integer', 'integers') if element == 'integer'
        else ('values among ' ~ rule['values'] | join(', ') if rule.get('values') else 'texts'))
        ~ (', strictly increasing' if rule.get('increasing') else '') -%}
    {%- if value is string or value is mapping or value is not iterable
          or (value | length == 0 and not rule.get('allow_empty')) -%}{{ return(allowed) }}{%- endif -%}
    {%- set state = namespace(previous=none, ok=true) -%}
    {%- for item in value -%}
      {%- if element == 'integer' -%}
        {%- set number = biasmirror.as_number(item, true) -%}
        {%- if number is none or not biasmirror.within_bounds(number, rule)
              or (rule.get('increasing') and state.previous is not none and number <= state.previous) -%}
          {%- set state.ok = false -%}
        {%- endif -%}
        {%- set state.previous = number -%}
      {%- elif item is not string or (rule.get('values') and item not in rule['values']) -%}
        {%- set state.ok = false -%}
      {%- endif -%}
    {%- endfor -%}
    {{ return('' if state.ok else allowed) }}
  {%- endif -%}
  {{ return('') }}
{% endmacro %}

{#- A number from a var value: an int (not a boolean), a finite float (number only), or a text that reads as one
    exactly; none otherwise. -#}
{% macro as_number(value, integer) %}
  {%- if value is boolean or value is none -%}{{ return(none) }}{%- endif -%}
  {%- if value is integer -%}{{ return(value) }}{%- endif -%}
  {%- if value is float -%}
    {%- if integer or value != value or value > 1.0e308 or value < -1.0e308 -%}{{ return(none) }}{%- endif -%}
    {{ return(value) }}
  {%- endif -%}
  {%- if value is string -%}
    {%- set text = value | trim -%}
    {%- if modules.re.fullmatch('[+-]?[0-9]+', text) -%}{{ return(text | int) }}{%- endif -%}
    {%- if not integer and modules.re.fullmatch('[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?', text) -%}
      {{ return(text | float) }}
    {%- endif -%}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro as_boolean(value) %}
  {%- if value is boolean -%}{{ return(value) }}{%- endif -%}
  {%- if value is string and value | trim | lower in ('true', 'false') -%}{{ return(value | trim | lower == 'true') }}{%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro within_bounds(number, rule) %}
  {%- if rule.get('min') is not none and number < rule['min'] -%}{{ return(false) }}{%- endif -%}
  {%- if rule.get('max') is not none and number > rule['max'] -%}{{ return(false) }}{%- endif -%}
  {%- if rule.get('above') is not none and number <= rule['above'] -%}{{ return(false) }}{%- endif -%}
  {%- if rule.get('below') is not none and number >= rule['below'] -%}{{ return(false) }}{%- endif -%}
  {{ return(true) }}
{% endmacro %}

{% macro describe_bounds(kind, rule) %}
  {%- set parts = [] -%}
  {%- if rule.get('above') is not none and rule.get('below') is not none -%}
    {%- do parts.append('strictly between ' ~ rule['above'] ~ ' and ' ~ rule['below']) -%}
  {%- elif rule.get('min') is not none and rule.get('max') is not none -%}
    {%- do parts.append('from ' ~ rule['min'] ~ ' to ' ~ rule['max']) -%}
  {%- else -%}
    {%- if rule.get('min') is not none -%}{%- do parts.append('at least ' ~ rule['min']) -%}{%- endif -%}
    {%- if rule.get('max') is not none -%}{%- do parts.append('at most ' ~ rule['max']) -%}{%- endif -%}
    {%- if rule.get('above') is not none -%}{%- do parts.append('above ' ~ rule['above']) -%}{%- endif -%}
    {%- if rule.get('below') is not none -%}{%- do parts.append('below ' ~ rule['below']) -%}{%- endif -%}
  {%- endif -%}
  {{ return(('an integer' if kind == 'integer' else 'a number') ~ ((' ' ~ parts | join(' and ')) if parts else '')) }}
{% endmacro %}
