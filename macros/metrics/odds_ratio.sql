{#- The acuity odds ratio of the triage study (docs/metrics.md, "Acuity odds ratio"), defined once.

    Among the changed pairs of a group and stratum, a 2 x 2 table of direction (f_to_m, m_to_f) by the sense of
    the move (up: the copy got a less severe level; down: a more severe one), from the paired sufficient
    statistics (macro paired_sufficient_statistics, observed or bootstrap-weighted):

                    up            down
        f_to_m      a = up_f_to_m    b = down_f_to_m
        m_to_f      c = up_m_to_f    d = down_m_to_f

    OR = (a / b) / (c / d) = a d / (b c): the odds that a female original presented as male moves up rather than
    down, over the same odds for a male original presented as female. OR < 1: female->male copies move toward the
    more severe level more often (relative to up moves) than male->female copies do.

    Zero cells, the same rule for the point estimate and every replicate:
      - every margin non-empty (both directions have a changed pair, and there is an up and a down move
        somewhere) and no zero cell: the plain ratio;
      - every margin non-empty but a cell is zero: Haldane-Anscombe correction, 0.5 added to all four cells
        (zero_cell_corrected is true);
      - a margin is empty (a + b = 0, c + d = 0, a + c = 0 or b + d = 0): the table holds no contrast, the ratio
        is null and `undefined_reason` says which margin. A replicate with no value is counted, not dropped
        silently (n_boot_undefined in audit.acuity_odds_ratios). -#}

{#- name -> expression over the sums (named as in paired_sufficient_statistics, plus `suffix`): the four cells,
    whether a margin is empty, whether the correction applies, the odds ratio and the reason it is undefined. -#}
{% macro acuity_odds_ratio_expressions(suffix='', correction=0.5) %}
  {%- set double = biasmirror.type_double() | trim -%}
  {%- set a = 'cast(up_f_to_m' ~ suffix ~ ' as ' ~ double ~ ')' -%}
  {%- set b = 'cast(down_f_to_m' ~ suffix ~ ' as ' ~ double ~ ')' -%}
  {%- set c = 'cast(up_m_to_f' ~ suffix ~ ' as ' ~ double ~ ')' -%}
  {%- set d = 'cast(down_m_to_f' ~ suffix ~ ' as ' ~ double ~ ')' -%}
  {%- set empty_margin = '(' ~ a ~ ' + ' ~ b ~ ' = 0 or ' ~ c ~ ' + ' ~ d ~ ' = 0 or ' ~ a ~ ' + ' ~ c ~ ' = 0 or ' ~ b ~ ' + ' ~ d ~ ' = 0)' -%}
  {%- set zero_cell = '(' ~ a ~ ' = 0 or ' ~ b ~ ' = 0 or ' ~ c ~ ' = 0 or ' ~ d ~ ' = 0)' -%}
  {%- set k = correction | float -%}
  {{ return({
      'empty_margin': empty_margin,
      'zero_cell_corrected': '(not ' ~ empty_margin ~ ' and ' ~ zero_cell ~ ')',
      'odds_ratio': 'case when ' ~ empty_margin ~ ' then null'
                    ~ ' when ' ~ zero_cell ~ ' then ((' ~ a ~ ' + ' ~ k ~ ') * (' ~ d ~ ' + ' ~ k ~ ')) / ((' ~ b ~ ' + ' ~ k ~ ') * (' ~ c ~ ' + ' ~ k ~ '))'
                    ~ ' else (' ~ a ~ ' * ' ~ d ~ ') / (' ~ b ~ ' * ' ~ c ~ ') end',
      'undefined_reason': 'case'
                    ~ ' when ' ~ a ~ ' + ' ~ b ~ ' = 0 then ' ~ biasmirror.sql_string('no changed f_to_m pair')
                    ~ ' when ' ~ c ~ ' + ' ~ d ~ ' = 0 then ' ~ biasmirror.sql_string('no changed m_to_f pair')
                    ~ ' when ' ~ a ~ ' + ' ~ c ~ ' = 0 then ' ~ biasmirror.sql_string('no up move in either direction')
                    ~ ' when ' ~ b ~ ' + ' ~ d ~ ' = 0 then ' ~ biasmirror.sql_string('no down move in either direction')
                    ~ ' end'
  }) }}
{% endmacro %}
