{#- on-run-start gate: validates every raw file the selected models read, before any model is built.

    dbt builds models one at a time, so an error found while building a staging model would leave the models
    built before it replaced and the rest stale. This hook runs first: for each file-based source (a source
    whose meta names a root_var) that a selected model reads and whose data set is configured, it checks
    - the file exists (one of the alternatives of meta.file) and has every declared column (assert_raw_file);
    - when the table's meta sets validate_rows, in one scan of the file (rows numbered from 1, the first record
      after the header): every row decodes as UTF-8 (the reader's rejected rows name the line and column), and
      each column's contract rules hold (raw_column_rules): meta.required (not empty), meta.unique (no two rows
      share the value), meta.accepted_values (trimmed value in the list, or empty; numerically for a numeric
      data_type), and the grammar of its data_type (dbt_project.yml raw_value_grammar: numbers, timestamps);
    - the row count: a file with no rows, or with more than var max_raw_row_drop (default 0.5) fewer rows than
      the last successful build of the data set read (inference.raw_source_counts), stops the build unless var
      allow_raw_shrink is true.
    Every problem of every file is listed in one compile error naming the source, the file, the column, the
    rule, how many rows break it and the first rows; offending values are shown only as raw_value_display allows
    (coded, short values quoted; anything else described by its length). The error stops the run before a model
    is touched. When every file passes, the counts are recorded for this invocation; record_build (on-run-end)
    keeps them only if the build succeeds. Returns a no-op statement.
    biasmirror.quality.raw applies the same rules, from the same YAML, in `biasmirror check`. -#}
{% macro validate_raw_sources() %}
  {%- if execute -%}
    {%- set messages = [] -%}
    {%- set counts = [] -%}
    {#- a data set read from database tables (var mimic_source or bordeaux_source: tables) has its types enforced by the database -#}
    {%- for node in graph.sources.values() if node.source_meta.get('root_var') and not biasmirror.source_reads_tables(node.source_meta) -%}
      {%- if biasmirror.source_read_by_selection(node.unique_id) -%}
        {%- set root = biasmirror.dataset_root(node.source_meta) -%}
        {%- if root != '' -%}
          {%- set label = node.source_name ~ '.' ~ node.name -%}
          {%- set path = biasmirror.raw_file_path(node, root) -%}
          {%- do biasmirror.assert_raw_file(path, node.columns.keys() | list, label) -%}
          {%- set checked = biasmirror.check_raw_rows(node, path) -%}
          {%- set problems = checked.problems + biasmirror.raw_count_problems(node, path, checked.n_rows) -%}
          {%- if problems -%}
            {%- do messages.append("Source " ~ label ~ ": file " ~ path ~ " breaks the source contract (nothing was built):\n  - "
                                   ~ problems | join("\n  - ")) -%}
          {%- endif -%}
          {%- do counts.append({'dataset': node.source_meta.dataset, 'source_table': label, 'file': path, 'n_rows': checked.n_rows}) -%}
        {%- endif -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if messages -%}
      {{ exceptions.raise_compiler_error(messages | join("\n")) }}
    {%- endif -%}
    {%- do biasmirror.record_raw_counts(counts) -%}
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

{#- The row rules of one column: a list of {rule, condition, shows_value}; the condition is SQL true on a row that
    breaks the rule, over the scan where the column is already trimmed (empty as null). The same rules, worded for
    GX, are biasmirror.quality.raw.column_rules. -#}
{% macro raw_column_rules(column) %}
  {%- set value = adapter.quote(column.name) -%}
  {%- set meta = column.meta or {} -%}
  {%- set data_type = (column.data_type or '') | lower -%}
  {%- set numeric = data_type in ('integer', 'bigint', 'double', 'float', 'numeric', 'decimal') -%}
  {%- set rules = [] -%}
  {%- if meta.get('required') -%}
    {%- do rules.append({'rule': 'required (not empty)', 'condition': value ~ " is null", 'shows_value': false}) -%}
  {%- endif -%}
  {%- if meta.get('unique') -%}
    {%- do rules.append({'rule': 'unique (no two rows share a value)',
                         'condition': value ~ " is not null and count(*) over (partition by " ~ value ~ ") > 1", 'shows_value': true}) -%}
  {%- endif -%}
  {%- if meta.get('accepted_values') -%}
    {%- set listed = [] -%}
    {%- for v in meta.accepted_values -%}
      {%- do listed.append((v | float | string) if numeric else biasmirror.sql_string(v | string)) -%}
    {%- endfor -%}
    {%- set condition = (value ~ " is not null and coalesce(" ~ biasmirror.raw_number(value) ~ " not in (" ~ listed | join(', ') ~ "), true)")
        if numeric else (value ~ " is not null and " ~ value ~ " not in (" ~ listed | join(', ') ~ ")") -%}
    {%- do rules.append({'rule': 'accepted values ' ~ meta.accepted_values | join(', ') ~ ' (or empty)',
                         'condition': condition, 'shows_value': true}) -%}
  {%- endif -%}
  {%- if numeric -%}
    {%- do rules.append({'rule': 'a number (' ~ data_type ~ ')',
                         'condition': value ~ " is not null and " ~ biasmirror.raw_number(value) ~ " is null", 'shows_value': true}) -%}
  {%- elif data_type in ('timestamp', 'date') -%}
    {%- do rules.append({'rule': 'a ' ~ data_type ~ ' (ISO 8601)',
                         'condition': value ~ " is not null and " ~ biasmirror.raw_timestamp(value, data_type) ~ " is null", 'shows_value': true}) -%}
  {%- endif -%}
  {{ return(rules) }}
{% endmacro %}

{#- One scan of the file into a temporary table (free-text columns only as "is present", so that every value is
    decoded and a wrong encoding found, but no text is kept), then the counts and first rows of every rule's
    violations, and the rows the reader rejected. Returns {n_rows, problems}. Without meta.validate_rows, only
    the rows are counted. -#}
{% macro check_raw_rows(node, path) %}
  {%- set scan = 'biasmirror_raw_scan' -%}
  {%- set row = 'biasmirror_row' -%}
  {%- if not node.meta.get('validate_rows') -%}
    {%- set n = run_query("select count(*) from " ~ biasmirror.read_text_file(path)).columns[0].values()[0] | int -%}
    {{ return({'n_rows': n, 'problems': []}) }}
  {%- endif -%}
  {%- for statement in biasmirror.reset_text_file_rejects() -%}{%- do run_query(statement) -%}{%- endfor -%}
  {%- set scanned = [] -%}
  {%- for column in node.columns.values() -%}
    {%- set source = "nullif(trim(" ~ adapter.quote(column.name) ~ "), '')" -%}
    {%- if ((column.meta or {}).get('kind') or 'free_text') == 'free_text' -%}
      {%- do scanned.append(source ~ " is not null as " ~ adapter.quote(column.name)) -%}
    {%- else -%}
      {%- do scanned.append(source ~ " as " ~ adapter.quote(column.name)) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do run_query("drop table if exists " ~ scan) -%}
  {%- do run_query("create temporary table " ~ scan ~ " as select " ~ row ~ ", " ~ scanned | join(', ')
                   ~ " from " ~ biasmirror.numbered_text_file_recording_rejects(path, row)) -%}
  {%- set checks = [] -%}
  {%- for column in node.columns.values() if ((column.meta or {}).get('kind') or 'free_text') != 'free_text' -%}
    {%- for rule in biasmirror.raw_column_rules(column) -%}
      {%- do checks.append({'column': column, 'rule': rule}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set sql -%}
    with flagged as (
      select
        {{ row }}
        {%- for check in checks %},
        case when {{ check.rule.condition }} then 1 else 0 end as bad_{{ loop.index }}
        {%- endfor %}
      from {{ scan }}
    )
    select
      count(*) as n_rows
      {%- for check in checks %},
      sum(bad_{{ loop.index }}) as n_bad_{{ loop.index }}
      {%- endfor %}
    from flagged
  {%- endset -%}
  {%- set result = run_query(sql) -%}
  {%- set n_rows = result.columns['n_rows'].values()[0] | int -%}
  {%- set problems = [] -%}
  {%- set rejects = run_query("select line, column_name, error_type from " ~ biasmirror.text_file_rejects(path) ~ " order by line") -%}
  {%- if rejects.rows | length > 0 -%}
    {%- set lines = [] -%}{%- set columns = [] -%}
    {%- for reject in rejects.rows -%}
      {%- if reject[0] not in lines -%}{%- do lines.append(reject[0]) -%}{%- endif -%}
      {%- if reject[1] is not none and biasmirror.raw_header_display(reject[1]) not in columns -%}
        {%- do columns.append(biasmirror.raw_header_display(reject[1])) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- set first = rejects.rows[0] -%}
    {%- set rule = 'UTF-8 text' if 'ENCODING' in (first[2] | string | upper) else 'a readable CSV row' -%}
    {#- the reader's own message is not shown: it may quote the line -#}
    {%- do problems.append("column " ~ (columns | join(', ') or '-') ~ ", rule " ~ rule ~ ": " ~ lines | length
        ~ " row(s) cannot be read (first at line " ~ first[0] ~ ": " ~ first[2] ~ ")"
        ~ (". Re-export the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)" if rule == 'UTF-8 text' else "")) -%}
  {%- endif -%}
  {%- for check in checks -%}
    {%- set n_bad = (result.columns['n_bad_' ~ loop.index].values()[0] or 0) | int -%}
    {%- if n_bad and n_bad > 0 -%}
      {%- set value = adapter.quote(check.column.name) -%}
      {%- set first_rows = run_query(
          "select " ~ row ~ ", " ~ biasmirror.raw_value_display(value, (check.column.meta or {}).get('kind')) ~ " as shown"
          ~ " from (select *, case when " ~ check.rule.condition ~ " then 1 else 0 end as bad from " ~ scan ~ ") as rows"
          ~ " where bad = 1 order by " ~ row ~ " limit 5") -%}
      {%- set shown = [] -%}{%- set numbers = [] -%}
      {%- for found in first_rows.rows -%}
        {%- do numbers.append(found[0] | string) -%}
        {%- if found[1] not in shown -%}{%- do shown.append(found[1]) -%}{%- endif -%}
      {%- endfor -%}
      {%- do problems.append("column " ~ check.column.name ~ ", rule " ~ check.rule.rule ~ ": " ~ n_bad ~ " row(s) break it"
          ~ ((" (e.g. " ~ shown | join(', ') ~ ")") if check.rule.shows_value else "")
          ~ " at row" ~ ("s " if n_bad > 1 else " ") ~ numbers | join(', ') ~ (", ..." if n_bad > 5 else "")) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do run_query("drop table if exists " ~ scan) -%}
  {{ return({'n_rows': n_rows, 'problems': problems}) }}
{% endmacro %}

{#- The guard of scheduled builds: a file with no rows, or that fell by more than var max_raw_row_drop against the
    count of the last successful build that read this source, unless var allow_raw_shrink. -#}
{% macro raw_count_problems(node, path, n_rows) %}
  {%- if biasmirror.as_boolean(var('allow_raw_shrink', false)) -%}{{ return([]) }}{%- endif -%}
  {%- set override = " If the data set is meant to shrink, rerun with --vars '{allow_raw_shrink: true}'." -%}
  {%- if n_rows == 0 -%}
    {{ return(["rule at least one row: the file has no rows (only a header?); building on it would empty the "
               ~ node.source_meta.dataset ~ " cohort." ~ override]) }}
  {%- endif -%}
  {%- if not biasmirror.inference_table_exists('raw_source_counts') or not biasmirror.inference_table_exists('dbt_builds') -%}
    {{ return([]) }}
  {%- endif -%}
  {%- set previous = run_query(
      "select c.n_rows, b.finished_at, c.file from inference.raw_source_counts c"
      ~ " join inference.dbt_builds b on b.invocation_id = c.invocation_id"
      ~ " where c.source_table = " ~ biasmirror.sql_string(node.source_name ~ '.' ~ node.name)
      ~ " order by b.finished_at desc limit 1") -%}
  {%- if previous.rows | length == 0 -%}{{ return([]) }}{%- endif -%}
  {%- set before = previous.rows[0][0] | int -%}
  {%- set max_drop = biasmirror.as_number(var('max_raw_row_drop', 0.5), false) -%}
  {%- if before and n_rows < before * (1 - max_drop) -%}
    {{ return(["rule row count: " ~ n_rows ~ " row(s), " ~ ((1 - n_rows / before) * 100) | round(1) ~ "% fewer than the "
               ~ before ~ " read by the last successful build (" ~ previous.rows[0][1] ~ " UTC, " ~ previous.rows[0][2]
               ~ "); a fall of more than " ~ (max_drop * 100) | round(1) ~ "% (var max_raw_row_drop) stops the build."
               ~ override]) }}
  {%- endif -%}
  {{ return([]) }}
{% endmacro %}

{#- The counts of this invocation; record_build keeps them when the build succeeds and removes them otherwise. -#}
{% macro record_raw_counts(counts) %}
  {%- if not counts or not biasmirror.inference_table_exists('raw_source_counts') -%}{{ return('') }}{%- endif -%}
  {%- set now = modules.datetime.datetime.now(modules.pytz.utc).strftime('%Y-%m-%d %H:%M:%S') -%}
  {%- set rows = [] -%}
  {%- for count in counts -%}
    {%- do rows.append("(" ~ biasmirror.sql_string(count.dataset) ~ ", " ~ biasmirror.sql_string(count.source_table) ~ ", "
        ~ biasmirror.sql_string(count.file) ~ ", " ~ count.n_rows ~ ", " ~ biasmirror.sql_string(invocation_id) ~ ", "
        ~ "cast(" ~ biasmirror.sql_string(now) ~ " as timestamp))") -%}
  {%- endfor -%}
  {%- do run_query("delete from inference.raw_source_counts where invocation_id = " ~ biasmirror.sql_string(invocation_id)) -%}
  {%- do run_query("insert into inference.raw_source_counts (dataset, source_table, file, n_rows, invocation_id, counted_at) values "
                   ~ rows | join(', ')) -%}
{% endmacro %}
