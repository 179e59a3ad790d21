{#- Hashing and hash-derived random numbers. All randomness in the project's SQL comes from hashes of stable
    keys (never from random()), so results do not depend on row order or thread count. -#}

{#- 64-bit unsigned hash of one value. Note that DuckDB's hash() changed between versions: results are
    reproducible for a given engine version. -#}
{% macro hash64(expr) -%}
  {{ return(adapter.dispatch('hash64', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__hash64(expr) -%}
  hash({{ expr }})
{%- endmacro %}
{#- PostgreSQL: hashtextextended of the value's text, a signed bigint holding the 64 bits (its hash function, not
    DuckDB's: draws differ between the engines, see docs/engines.md). -#}
{% macro postgres__hash64(expr) -%}
  hashtextextended(cast({{ expr }} as text), 0)
{%- endmacro %}

{#- Bitwise xor of two unsigned 64-bit integers. -#}
{% macro xor64(a, b) -%}
  {{ return(adapter.dispatch('xor64', 'biasmirror')(a, b)) }}
{%- endmacro %}
{% macro duckdb__xor64(a, b) -%}
  xor({{ a }}, cast({{ b }} as ubigint))
{%- endmacro %}
{#- PostgreSQL has no unsigned integers: the 64 bits live in a signed bigint, a constant above 2^63 wraps. -#}
{% macro postgres__xor64(a, b) -%}
  {%- if b is number and b >= 9223372036854775808 -%}{%- set b = b - 18446744073709551616 -%}{%- endif -%}
  ({{ a }} # cast({{ b }} as bigint))
{%- endmacro %}

{#- Uniform number in [0, 1) from a 64-bit hash (its top 53 bits). -#}
{% macro uniform_from_hash(hash_expr) -%}
  {{ return(adapter.dispatch('uniform_from_hash', 'biasmirror')(hash_expr)) }}
{%- endmacro %}
{% macro duckdb__uniform_from_hash(hash_expr) -%}
  (cast(({{ hash_expr }}) >> 11 as double) / 9007199254740992.0)
{%- endmacro %}
{#- the shift of a signed bigint is arithmetic: mask the top 53 bits' position to keep them unsigned -#}
{% macro postgres__uniform_from_hash(hash_expr) -%}
  (cast((({{ hash_expr }}) >> 11) & 9007199254740991 as double precision) / 9007199254740992.0)
{%- endmacro %}

{#- Stable, engine-independent text digest (for content-addressed ids such as model input ids). -#}
{% macro digest_text(expr) -%}
  {{ return(adapter.dispatch('digest_text', 'biasmirror')(expr)) }}
{%- endmacro %}
{% macro duckdb__digest_text(expr) -%}
  md5({{ expr }})
{%- endmacro %}
{% macro postgres__digest_text(expr) -%}
  md5({{ expr }})
{%- endmacro %}

{#- Uniform number in [0, 1) from the md5 digest of a text: stable across engines and engine versions
    (unlike hash64), for assignments that must never change, such as the train/test split. -#}
{% macro stable_uniform(text_expr) -%}
  {{ return(adapter.dispatch('stable_uniform', 'biasmirror')(text_expr)) }}
{%- endmacro %}
{% macro duckdb__stable_uniform(text_expr) -%}
  (cast({{ biasmirror.md5_bits52(text_expr) }} as double) / 4503599627370496.0)
{%- endmacro %}
{% macro postgres__stable_uniform(text_expr) -%}
  (cast({{ biasmirror.md5_bits52(text_expr) }} as double precision) / 4503599627370496.0)
{%- endmacro %}

{#- The first 52 bits of a text's md5 digest as a bigint: the same number on both engines. -#}
{% macro md5_bits52(text_expr) -%}
  {{ return(adapter.dispatch('md5_bits52', 'biasmirror')(text_expr)) }}
{%- endmacro %}
{% macro duckdb__md5_bits52(text_expr) -%}
  cast('0x' || substr(md5({{ text_expr }}), 1, 13) as bigint)
{%- endmacro %}
{% macro postgres__md5_bits52(text_expr) -%}
  ('x' || lpad(substr(md5({{ text_expr }}), 1, 13), 16, '0'))::bit(64)::bigint
{%- endmacro %}

{#- An aggregate: an order-independent digest of a set of texts - the md5 of their count and of the exact sum of
    their 52-bit digests (integer arithmetic: no row order or thread count changes it; the same on both
    engines). Two sets that differ in one text differ in their digest. -#}
{% macro set_digest(text_expr) -%}
  md5(cast(count({{ text_expr }}) as {{ biasmirror.type_text() }}) || ':' || cast(sum({{ biasmirror.md5_bits52(text_expr) }}) as {{ biasmirror.type_text() }}))
{%- endmacro %}
{#- Spark: xxhash64, a signed bigint holding the 64 bits (as on PostgreSQL: its own hash function, so its own
    draws, docs/engines.md); xor as on PostgreSQL; the top 53 bits masked after the arithmetic shift. -#}
{% macro spark__hash64(expr) -%}
  xxhash64({{ expr }})
{%- endmacro %}
{% macro spark__xor64(a, b) -%}
  {%- if b is number and b >= 9223372036854775808 -%}{%- set b = b - 18446744073709551616 -%}{%- endif -%}
  ({{ a }} ^ cast({{ b }} as bigint))
{%- endmacro %}
{% macro spark__uniform_from_hash(hash_expr) -%}
  (cast(shiftright({{ hash_expr }}, 11) & 9007199254740991 as double) / cast(9007199254740992 as double))
{%- endmacro %}
{% macro spark__digest_text(expr) -%}
  md5({{ expr }})
{%- endmacro %}
{% macro spark__stable_uniform(text_expr) -%}
  (cast({{ biasmirror.md5_bits52(text_expr) }} as double) / cast(4503599627370496 as double))
{%- endmacro %}
{% macro spark__md5_bits52(text_expr) -%}
  cast(conv(substr(md5({{ text_expr }}), 1, 13), 16, 10) as bigint)
{%- endmacro %}
