{#- on-run-start gate: validates every raw file the selected models read, before any model is built.

    dbt builds models one at a time, so an error found while building a staging model would leave the models
    built before it replaced and the rest stale. This hook runs first: for each file-based source (a source
    whose meta names a root_var) that a selected model reads and whose data set is configured, it checks
    - the file exists (one of the alternatives of meta.file) and has every declared column (assert_raw_file);
    - when the table's meta sets validate_rows: every row decodes as UTF-8 (the reader's rejected rows name the
      line and column), and each column's contract rules hold: meta.required (not empty), meta.accepted_values
      (trimmed value in the list, or empty), and data_type integer/bigint/double (a number, decimal comma
      accepted) or timestamp (castable).
    Any violation is a compile error naming the source, the file, the column and the rule, which stops the run
    before a model is touched. Returns a no-op statement. -#}
{% macro validate_raw_sources() %}
  {%- if execute -%}
    {%- for node in graph.sources.values() if node.source_meta.get('root_var') -%}
      {%- if biasmirror.source_read_by_selection(node.unique_id) -%}
        {%- set root = biasmirror.dataset_root(node.source_meta) -%}
        {%- if root != '' -%}
          {%- set label = node.source_name ~ '.' ~ node.name -%}
          {%- set path = biasmirror.raw_file_path(node, root) -%}
          {%- do biasmirror.assert_raw_file(path, node.columns.keys() | list, label) -%}
          {%- if node.meta.get('validate_rows') -%}
            {%- do biasmirror.assert_raw_rows(node, path, label) -%}
          {%- endif -%}
        {%- endif -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  select 1 as raw_sources_validated
{% endmacro %}

{#- Whether a selected model reads the source directly. -#}
{% macro source_read_by_selection(source_id) %}
  {%- for unique_id in selected_resources if unique_id in graph.nodes -%}
    {%- if source_id in graph.nodes[unique_id].depends_on.nodes -%}{{ return(true) }}{%- endif -%}
  {%- endfor -%}
  {{ return(false) }}
{% endmacro %}

{#- The row rules of one column: a list of (rule text, SQL condition true for a violating row). -#}
{% macro raw_column_rules(column) %}
  {%- set value = "nullif(trim(" ~ adapter.quote(column.name) ~ "), '')" -%}
  {%- set meta = column.meta or {} -%}
  {%- set rules = [] -%}
  {%- if meta.get('required') -%}
    {%- do rules.append(('required (not empty)', value ~ " is null")) -%}
  {%- endif -%}
  {%- if meta.get('accepted_values') -%}
    {%- set quoted = [] -%}
    {%- for v in meta.accepted_values -%}{%- do quoted.append(biasmirror.sql_string(v | string)) -%}{%- endfor -%}
    {%- do rules.append(('accepted values ' ~ meta.accepted_values | join(', ') ~ ' (or empty)',
                         value ~ " is not null and " ~ value ~ " not in (" ~ quoted | join(', ') ~ ")")) -%}
  {%- endif -%}
  {%- set data_type = (column.data_type or '') | lower -%}
  {%- if data_type in ('integer', 'bigint', 'double', 'float', 'numeric', 'decimal') -%}
    {%- do rules.append(('a number (' ~ data_type ~ ')',
                         value ~ " is not null and try_cast(replace(" ~ value ~ ", ',', '.') as double) is null")) -%}
  {%- elif data_type in ('timestamp', 'date') -%}
    {%- do rules.append(('a ' ~ data_type ~ ' (ISO 8601)',
                         value ~ " is not null and try_cast(" ~ value ~ " as " ~ data_type ~ ") is null")) -%}
  {%- endif -%}
  {{ return(rules) }}
{% endmacro %}

{#- One scan of the file: counts and examples of every rule's violations, and the rows the reader rejected. -#}
{% macro assert_raw_rows(node, path, label) %}
  {%- set checks = [] -%}
  {%- for column in node.columns.values() -%}
    {%- for rule in biasmirror.raw_column_rules(column) -%}
      {%- do checks.append({'column': column.name, 'rule': rule[0], 'condition': rule[1]}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- for statement in biasmirror.reset_text_file_rejects() -%}{%- do run_query(statement) -%}{%- endfor -%}
  {%- set sql -%}
    select
      count(*) as n_rows
      {%- for column in node.columns.keys() %},
      {#- every column is referenced, so that every value is decoded (and a wrong encoding found) #}
      count({{ adapter.quote(column) }}) as n_present_{{ loop.index }}
      {%- endfor %}
      {%- for check in checks %},
      sum(case when {{ check.condition }} then 1 else 0 end) as n_bad_{{ loop.index }},
      min(case when {{ check.condition }} then {{ adapter.quote(check.column) }} end) as example_{{ loop.index }}
      {%- endfor %}
    from {{ biasmirror.read_text_file_recording_rejects(path) }}
  {%- endset -%}
  {%- set result = run_query(sql) -%}
  {%- set problems = [] -%}
  {%- set rejects = run_query("select line, column_name, error_type, error_message from " ~ biasmirror.text_file_rejects(path) ~ " order by line") -%}
  {%- if rejects.rows | length > 0 -%}
    {%- set lines = [] -%}{%- set columns = [] -%}
    {%- for row in rejects.rows -%}
      {%- if row[0] not in lines -%}{%- do lines.append(row[0]) -%}{%- endif -%}
      {%- if row[1] not in columns -%}{%- do columns.append(row[1]) -%}{%- endif -%}
    {%- endfor -%}
    {%- set first = rejects.rows[0] -%}
    {%- set rule = 'UTF-8 text' if 'ENCODING' in (first[2] | string | upper) else 'a readable CSV row' -%}
    {%- do problems.append("column " ~ columns | join(', ') ~ ", rule " ~ rule ~ ": " ~ lines | length
        ~ " row(s) cannot be read (first at line " ~ first[0] ~ ": " ~ first[2] ~ " - " ~ first[3] ~ ")"
        ~ (". Re-export the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)" if rule == 'UTF-8 text' else "")) -%}
  {%- endif -%}
  {%- for check in checks -%}
    {%- set n_bad = result.columns['n_bad_' ~ loop.index].values()[0] -%}
    {%- if n_bad and n_bad > 0 -%}
      {%- set example = result.columns['example_' ~ loop.index].values()[0] -%}
      {%- do problems.append("column " ~ check.column ~ ", rule " ~ check.rule ~ ": " ~ n_bad ~ " row(s) break it"
          ~ (" (e.g. '" ~ example ~ "')" if example is not none else "")) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if problems -%}
    {{ exceptions.raise_compiler_error("Source " ~ label ~ ": file " ~ path ~ " breaks the source contract (nothing was built):\n  - " ~ problems | join("\n  - ")) }}
  {%- endif -%}
{% endmacro %}
