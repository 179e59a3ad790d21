{#- Reads one raw file of a file-based source (MIMIC-IV, Bordeaux) with every column as text.

    The folder comes from the var named by the source's `meta.root_var`; when that var is empty, from the
    environment variable named by `meta.root_env`; else from the folder registered for the source's
    `meta.dataset` in inference.dataset_roots (so a scheduled `dbt build` re-reads the files the last CLI build
    used). biasmirror.datasets.resolve_roots follows the same order for every command. The file comes from the
    table's `meta.file`.
    - no folder: an empty relation with the declared columns, so every data set is optional;
    - var set but the file missing, or a declared column missing from it: a compile error naming the file
      and the columns, before anything is built;
    - otherwise: the declared columns, read with the engine's CSV/Parquet reader.
    `meta.file` is one path or a list of alternatives (e.g. [visits.parquet, visits.csv.gz, visits.csv]): the
    first that exists is read. `source()` is still called so that lineage and docs show the dependency.
    Before any model is built, the on-run-start hook validate_raw_sources runs the same file and column checks
    (and the contract's row rules) for every source the selected models read. -#}
{% macro raw_source(source_name, table_name) %}
  {%- set relation = source(source_name, table_name) -%}
  {%- if not execute -%}{{ return('select 1') }}{%- endif -%}
  {%- set node = biasmirror.source_node(source_name, table_name) -%}
  {%- set columns = node.columns.keys() | list -%}
  {%- if biasmirror.source_reads_tables(node.source_meta) -%}
    {{ return(biasmirror.raw_table_select(node)) }}
  {%- endif -%}
  {%- set root = biasmirror.dataset_root(node.source_meta) -%}
  {%- if root == '' -%}
    select {% for col in columns %}cast(null as {{ biasmirror.type_text() }}) as {{ adapter.quote(col) }}{{ ", " if not loop.last }}{% endfor %}
    where false
  {%- else -%}
    {%- set path = biasmirror.raw_file_path(node, root) -%}
    {%- do biasmirror.assert_raw_file(path, columns, source_name ~ '.' ~ table_name) -%}
    select {% for col in columns %}{{ adapter.quote(col) }}{{ ", " if not loop.last }}{% endfor %}
    from {{ biasmirror.read_text_file(path) }}
  {%- endif -%}
{% endmacro %}

{% macro source_node(source_name, table_name) %}
  {%- for node in graph.sources.values() if node.source_name == source_name and node.name == table_name -%}
    {{ return(node) }}
  {%- endfor -%}
  {{ exceptions.raise_compiler_error("Unknown source " ~ source_name ~ "." ~ table_name) }}
{% endmacro %}

{#- The folder of a file-based source: its root var, else its environment variable, else the folder registered
    for its data set, else ''. -#}
{% macro dataset_root(source_meta) %}
  {%- set root = (var(source_meta.root_var, '') or '') | string | trim -%}
  {%- if root == '' and source_meta.get('root_env') -%}
    {%- set root = env_var(source_meta.root_env, '') | string | trim -%}
  {%- endif -%}
  {%- if root == '' -%}{%- set root = biasmirror.registered_root(source_meta.dataset) -%}{%- endif -%}
  {{ return(root) }}
{% endmacro %}

{#- The file a source table reads under root: meta.file, or the first existing one of a list of alternatives
    (a compile error naming every alternative when none exists). -#}
{% macro raw_file_path(node, root) %}
  {%- set candidates = [node.meta.file] if node.meta.file is string else node.meta.file -%}
  {%- set paths = [] -%}
  {%- for name in candidates -%}{%- do paths.append(root.rstrip('/') ~ '/' ~ name) -%}{%- endfor -%}
  {%- if paths | length == 1 -%}{{ return(paths[0]) }}{%- endif -%}
  {%- for path in paths -%}
    {%- set found = run_query("select count(*) from glob(" ~ biasmirror.sql_string(path) ~ ")").columns[0].values()[0] -%}
    {%- if found > 0 -%}{{ return(path) }}{%- endif -%}
  {%- endfor -%}
  {{ exceptions.raise_compiler_error("Source " ~ node.source_name ~ "." ~ node.name ~ ": file not found: none of "
      ~ paths | join(', ') ~ ". Check the data set root var (" ~ node.source_meta.root_var ~ ") and the file name.") }}
{% endmacro %}

{% macro assert_raw_file(path, columns, label) %}
  {%- set found = run_query("select count(*) from glob(" ~ biasmirror.sql_string(path) ~ ")").columns[0].values()[0] -%}
  {%- if found == 0 -%}
    {{ exceptions.raise_compiler_error("Source " ~ label ~ ": file not found: " ~ path ~ ". Check the data set root var (e.g. mimic_root) and the file name.") }}
  {%- endif -%}
  {#- the recording reader: a badly encoded line in the sniffed sample must not hide the column check -#}
  {%- set described = run_query("describe select * from " ~ biasmirror.read_text_file_recording_rejects(path) ~ " limit 0") -%}
  {%- set present = described.columns[0].values() | map('lower') | list -%}
  {%- set missing = [] -%}
  {%- for col in columns if col | lower not in present -%}{%- do missing.append(col) -%}{%- endfor -%}
  {%- if missing -%}
    {#- a file without a header row has data in its first line: header names are shown only when they look like names -#}
    {%- set shown = [] -%}
    {%- for name in described.columns[0].values() -%}{%- do shown.append(biasmirror.raw_header_display(name)) -%}{%- endfor -%}
    {{ exceptions.raise_compiler_error("Source " ~ label ~ ": file " ~ path ~ " lacks column(s) " ~ missing | join(', ') ~ "; it has: " ~ shown | join(', ')) }}
  {%- endif -%}
{% endmacro %}


{#- The folder registered for a data set in inference.dataset_roots, or ''. -#}
{% macro registered_root(dataset) %}
  {%- if not biasmirror.inference_table_exists('dataset_roots') -%}{{ return('') }}{%- endif -%}
  {%- set result = run_query("select root from inference.dataset_roots where dataset = " ~ biasmirror.sql_string(dataset) ~ " order by registered_at desc limit 1") -%}
  {%- if result.rows | length == 0 -%}{{ return('') }}{%- endif -%}
  {{ return(result.columns[0].values()[0] | string) }}
{% endmacro %}

{#- Whether a file-based data set is read from tables instead: its meta.tables_var (e.g. var mimic_source) is
    'tables'. The table is named as the file without its extension. A file in a module folder reads the schema
    <prefix><module>: MIMIC-IV loaded into a database by the MIT-LCP mimic-code scripts (PostgreSQL, DuckDB) has
    one schema per module (mimiciv_ed, mimiciv_hosp, mimiciv_note, with var mimic_schema_prefix 'mimiciv_'), so
    ed/edstays.csv.gz -> mimiciv_ed.edstays. A file at the root of its folder reads the schema named by the var
    in the source's meta.schema_var (var bordeaux_schema: visits.parquet -> bordeaux.visits). -#}
{% macro source_reads_tables(source_meta) %}
  {%- set kind_var = source_meta.get('tables_var') -%}
  {{ return(kind_var is not none and (var(kind_var, 'files') | string | trim | lower) == 'tables') }}
{% endmacro %}

{% macro raw_table_relation(node) %}
  {%- set file = node.meta.file if node.meta.file is string else node.meta.file[0] -%}
  {%- set module, slash, name = file.rpartition('/') -%}
  {%- if module -%}
    {%- set schema = (var(node.source_meta.get('schema_prefix_var', ''), '') | string | trim) ~ module -%}
  {%- else -%}
    {%- set schema = var(node.source_meta.get('schema_var', ''), '') | string | trim -%}
  {%- endif -%}
  {%- if schema == '' -%}
    {{ exceptions.raise_compiler_error("Source " ~ node.source_name ~ "." ~ node.name ~ " is read from tables, but "
        ~ "no schema is set: set var " ~ node.source_meta.get('schema_var', 'schema_var') ~ ".") }}
  {%- endif -%}
  {{ return(adapter.quote(schema) ~ '.' ~ adapter.quote(name.split('.')[0])) }}
{% endmacro %}

{#- The declared columns of a source table read from its database table, each cast to text as the file reader
    reads them (so that one staging model serves both); a table or column missing is the database's own error,
    which names it. -#}
{% macro raw_table_select(node) %}
  {{ return("select " ~ biasmirror.raw_table_columns(node.columns) ~ " from " ~ biasmirror.raw_table_relation(node)) }}
{% endmacro %}

{#- Each column as text. A column declared numeric may be loaded as a number: a whole value then reads as a file
    writes it ("7", not the engine's "7.0" for a double), so texts that staging keeps (the pain score) are the
    same from a file and from a table; any other value keeps its text form. -#}
{% macro raw_table_columns(columns) %}
  {%- set selected = [] -%}
  {%- for name, column in columns.items() -%}
    {%- set text = "cast(" ~ adapter.quote(name) ~ " as " ~ biasmirror.type_text() ~ ")" -%}
    {%- if (column.data_type or '') | lower in ('double', 'integer', 'bigint') -%}
      {%- set number = biasmirror.try_cast_text(text, 'double') -%}
      {%- set text = "case when " ~ number ~ " = floor(" ~ number ~ ") and abs(" ~ number ~ ") < 1e15 then cast(cast("
                     ~ number ~ " as bigint) as " ~ biasmirror.type_text() ~ ") else " ~ text ~ " end" -%}
    {%- endif -%}
    {%- do selected.append(text ~ " as " ~ adapter.quote(name)) -%}
  {%- endfor -%}
  {{ return(selected | join(', ')) }}
{% endmacro %}
