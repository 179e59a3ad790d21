"""The raw-file contracts of the file-based sources (MIMIC-IV, Bordeaux), read from the dbt sources files.

A source whose meta names a `root_var` is file-based: its tables' `meta.file` (one path or a list of
alternatives) lives under the data set's folder, and the columns listed are the contract: each column's kind
(id, code, number, timestamp or free_text), whether it is required or unique, its accepted values, its
data_type (which selects the grammar a value must follow) and, for measurements, a plausible range in the
file's own unit. The grammar of numbers and timestamps, and which values are short and code-like enough to be
quoted, is project-wide: `sources: biasmirror: +meta: raw_value_grammar` in dbt_project.yml.

The same YAML drives the dbt side (macros raw_source and validate_raw_sources); this module only reads it, and
refuses a contract it could not apply the same way (an unknown kind, a malformed range).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from biasmirror.paths import project_dir
from biasmirror.project_config import dbt_project

NUMERIC_TYPES = frozenset({"integer", "bigint", "double", "float", "numeric", "decimal"})
TEMPORAL_TYPES = frozenset({"timestamp", "date"})
#: what a column holds; every kind but free_text is "coded": its short, code-shaped values may be quoted
KINDS = ("id", "code", "number", "timestamp", "free_text")
CODED_KINDS = frozenset(KINDS) - {"free_text"}


class ContractError(ValueError):
    """A sources file that breaks the contract vocabulary (names the file, the table and the column)."""


@dataclass(frozen=True)
class PlausibleRange:
    """A plausible range in the file's own unit; `mostly` is the share of non-empty values that must fall in
    it (real extracts hold a few typos, a wrong unit moves nearly every value out)."""

    low: float
    high: float
    unit: str
    mostly: float = 0.99


@dataclass(frozen=True)
class ValueGrammar:
    """The one grammar of raw values (dbt_project.yml, raw_value_grammar): regular expressions a trimmed,
    non-empty value must match - numbers, timestamps - and, per coded kind, the shape of a value that may be
    quoted in any message, log or page."""

    number: str
    timestamp: str
    quotable: dict[str, str]

    def is_quotable(self, value: str, kind: str | None) -> bool:
        """Whether a text value of a column of this kind may be quoted (never for free text or an unknown kind)."""
        pattern = self.quotable.get(kind or "") if kind in CODED_KINDS else None
        return pattern is not None and re.fullmatch(pattern, value) is not None


@dataclass(frozen=True)
class RawColumn:
    name: str
    kind: str
    data_type: str | None = None
    required: bool = False
    unique: bool = False
    accepted_values: tuple[str, ...] | None = None
    plausible: PlausibleRange | None = None

    @property
    def grammar(self) -> str | None:
        """'number' or 'timestamp' when the data_type gives the values a grammar, else None."""
        data_type = (self.data_type or "").lower()
        if data_type in NUMERIC_TYPES:
            return "number"
        if data_type in TEMPORAL_TYPES:
            return "timestamp"
        return None

    @property
    def is_free_text(self) -> bool:
        return self.kind == "free_text"


@dataclass(frozen=True)
class RawTable:
    dataset: str
    source: str
    table: str
    files: tuple[str, ...]
    columns: tuple[RawColumn, ...]
    validate_rows: bool = False
    root_var: str = ""
    root_env: str = ""
    #: the dbt var that, set to 'tables', reads the data set from database tables instead (e.g. mimic_source)
    tables_var: str = ""

    @property
    def label(self) -> str:
        return f"{self.source}.{self.table}"

    def locate(self, root: Path) -> Path | None:
        """The first alternative that exists under root, or None."""
        for name in self.files:
            if (root / name).is_file():
                return root / name
        return None

    def column(self, name: str) -> RawColumn:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.label} has no column {name!r}")


@dataclass(frozen=True)
class RawSourceContracts:
    tables: tuple[RawTable, ...] = field(default_factory=tuple)
    grammar: ValueGrammar = field(default_factory=lambda: ValueGrammar("", "", {}))

    def datasets(self) -> list[str]:
        return sorted({t.dataset for t in self.tables})

    def for_dataset(self, dataset: str) -> list[RawTable]:
        return [t for t in self.tables if t.dataset == dataset]

    def root_var(self, dataset: str) -> str:
        """The dbt var naming the data set's folder (e.g. mimic_root)."""
        return self._first(dataset).root_var

    def root_env(self, dataset: str) -> str:
        """The environment variable naming the data set's folder (e.g. BIASMIRROR_MIMIC_ROOT), or ''."""
        return self._first(dataset).root_env

    def tables_var(self, dataset: str) -> str:
        """The dbt var that reads the data set from database tables when set to 'tables' (e.g. mimic_source), or
        '' for a data set read from files only."""
        return self._first(dataset).tables_var

    def _first(self, dataset: str) -> RawTable:
        tables = self.for_dataset(dataset)
        if not tables:
            raise ValueError(f"Unknown data set {dataset!r}; known: {', '.join(self.datasets())}")
        return tables[0]


def _grammar(project: Path) -> ValueGrammar:
    document = dbt_project(project)
    meta = (((document.get("sources") or {}).get("biasmirror") or {}).get("+meta") or {})
    grammar = meta.get("raw_value_grammar")
    if not isinstance(grammar, dict) or not {"number", "timestamp", "quotable"} <= set(grammar):
        raise ContractError("dbt_project.yml: sources: biasmirror: +meta: raw_value_grammar must define number, "
                            "timestamp and quotable (the grammar of raw values)")
    quotable = {str(k): str(v) for k, v in (grammar["quotable"] or {}).items()}
    unknown = sorted(set(quotable) - CODED_KINDS)
    if unknown:
        raise ContractError(f"dbt_project.yml raw_value_grammar.quotable: unknown kind(s) {', '.join(unknown)}; "
                            f"known: {', '.join(sorted(CODED_KINDS))}")
    for name, pattern in [("number", grammar["number"]), ("timestamp", grammar["timestamp"]), *quotable.items()]:
        try:
            re.compile(str(pattern))
        except re.error as error:
            raise ContractError(f"dbt_project.yml raw_value_grammar {name}: not a regular expression ({error})") from error
    return ValueGrammar(number=str(grammar["number"]), timestamp=str(grammar["timestamp"]), quotable=quotable)


def _column(path: Path, label: str, column: dict[str, Any]) -> RawColumn:
    meta = column.get("meta") or {}
    where = f"{path.name}: {label} column {column.get('name')!r}"
    kind = meta.get("kind")
    if kind not in KINDS:
        raise ContractError(f"{where}: meta.kind must be one of {', '.join(KINDS)} (got {kind!r}); mark "
                            "free-text columns free_text, so that their values are never quoted")
    plausible = None
    if "range" in meta:
        bounds = meta["range"]
        if not (isinstance(bounds, list) and len(bounds) == 2 and all(isinstance(b, (int, float)) for b in bounds)
                and bounds[0] <= bounds[1] and meta.get("unit")):
            raise ContractError(f"{where}: meta.range must be [low, high] with low <= high, and meta.unit set")
        mostly = float(meta.get("mostly", 0.99))
        if not 0 < mostly <= 1:
            raise ContractError(f"{where}: meta.mostly must be in (0, 1], got {mostly}")
        plausible = PlausibleRange(float(bounds[0]), float(bounds[1]), str(meta["unit"]), mostly)
    accepted = meta.get("accepted_values")
    return RawColumn(
        name=str(column["name"]), kind=kind, data_type=(column.get("data_type") or None),
        required=bool(meta.get("required", False)), unique=bool(meta.get("unique", False)),
        accepted_values=tuple(str(v) for v in accepted) if accepted else None, plausible=plausible)


@lru_cache(maxsize=4)
def _load(project: Path) -> RawSourceContracts:
    tables: list[RawTable] = []
    for path in sorted((project / "models" / "staging").glob("*/_*__sources.yml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for source in document.get("sources", []):
            meta = source.get("meta") or {}
            if not meta.get("root_var"):
                continue
            for table in source.get("tables", []):
                table_meta = table.get("meta") or {}
                files = table_meta.get("file")
                files = (files,) if isinstance(files, str) else tuple(files or ())
                label = f"{source['name']}.{table['name']}"
                columns = tuple(_column(path, label, column) for column in table.get("columns", []))
                tables.append(RawTable(dataset=meta.get("dataset", source["name"]), source=source["name"],
                                       table=table["name"], files=files, columns=columns,
                                       validate_rows=bool(table_meta.get("validate_rows", False)),
                                       root_var=meta["root_var"], root_env=str(meta.get("root_env") or ""),
                                       tables_var=str(meta.get("tables_var") or "")))
    return RawSourceContracts(tuple(tables), _grammar(project))


def raw_contracts() -> RawSourceContracts:
    """Every file-based source table of the project, with its column contract and the value grammar."""
    return _load(project_dir())
