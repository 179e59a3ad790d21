"""Names read from data (data sets, models, generators, strata, column headers), made safe to show.

A name can hold any character: an escape sequence (ESC [ 2 J clears a terminal, ESC ] 0 ; ... sets its title),
a newline that forges a line of output, a bidirectional-formatting character (U+202E) that reverses what
follows it in a report cell. `shown` replaces each control character (C0, DEL, C1), bidirectional-formatting
character and line or paragraph separator with a visible escape (`\\x1b`, `\\n`, `\\u202e`), so the name is
still recognisable and nothing acts on the terminal or the page. The console (biasmirror.cli_options.console)
and every HTML building block of the report (biasmirror.report.html) pass text through it; messages that put a
name inside their own text call it on the name.
"""

from __future__ import annotations

import re

# C0 controls, DEL, C1 controls; Arabic letter mark, LRM/RLM, LRE/RLE/PDF/LRO/RLO, LRI/RLI/FSI/PDI; line and
# paragraph separators; byte-order mark / zero-width no-break space
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(character: str) -> str:
    if character in _NAMED:
        return _NAMED[character]
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: object, keep: str = "") -> str:
    """`text` as a string with every control and bidirectional-formatting character made a visible escape,
    except the characters in `keep` (e.g. "\\n" for a message's own line breaks)."""
    value = str(text)
    if not _UNSAFE.search(value):
        return value
    return _UNSAFE.sub(lambda match: match.group(0) if match.group(0) in keep else _visible(match.group(0)), value)
