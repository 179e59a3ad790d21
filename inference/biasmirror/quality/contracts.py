"""The raw-file contracts of the file-based sources (MIMIC-IV, Bordeaux), read from the dbt sources files.

A source whose meta names a `root_var` is file-based: its tables' `meta.file` (one path or a list of
alternatives) lives under the data set's folder, and the columns listed are the contract. The same YAML drives
the dbt side (macros raw_source and validate_raw_sources); this module only reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from biasmirror.paths import project_dir

NUMERIC_TYPES = frozenset({"integer", "bigint", "double", "float", "numeric", "decimal"})
TEMPORAL_TYPES = frozenset({"timestamp", "date"})


@dataclass(frozen=True)
class RawColumn:
    name: str
    data_type: str | None = None
    required: bool = False
    accepted_values: tuple[str, ...] | None = None


@dataclass(frozen=True)
class RawTable:
    dataset: str
    source: str
    table: str
    files: tuple[str, ...]
    columns: tuple[RawColumn, ...]
    validate_rows: bool = False
    root_var: str = ""

    @property
    def label(self) -> str:
        return f"{self.source}.{self.table}"

    def locate(self, root: Path) -> Path | None:
        """The first alternative that exists under root, or None."""
        for name in self.files:
            if (root / name).is_file():
                return root / name
        return None


@dataclass(frozen=True)
class RawSourceContracts:
    tables: tuple[RawTable, ...] = field(default_factory=tuple)

    def datasets(self) -> list[str]:
        return sorted({t.dataset for t in self.tables})

    def for_dataset(self, dataset: str) -> list[RawTable]:
        return [t for t in self.tables if t.dataset == dataset]


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
                columns = tuple(
                    RawColumn(
                        name=column["name"],
                        data_type=(column.get("data_type") or None),
                        required=bool((column.get("meta") or {}).get("required", False)),
                        accepted_values=(tuple(str(v) for v in (column.get("meta") or {})["accepted_values"])
                                         if (column.get("meta") or {}).get("accepted_values") else None),
                    )
                    for column in table.get("columns", [])
                )
                tables.append(RawTable(dataset=meta.get("dataset", source["name"]), source=source["name"],
                                       table=table["name"], files=files, columns=columns,
                                       validate_rows=bool(table_meta.get("validate_rows", False)),
                                       root_var=meta["root_var"]))
    return RawSourceContracts(tuple(tables))


def raw_contracts() -> RawSourceContracts:
    """Every file-based source table of the project, with its column contract."""
    return _load(project_dir())
