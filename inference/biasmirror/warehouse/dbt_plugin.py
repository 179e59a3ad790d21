"""dbt-duckdb plugin (profiles.yml `plugins:`): builds run on the working copy and publish it when they succeed.

Every dbt invocation on the project, `biasmirror build` and a plain scheduled `dbt build` alike, loads this
plugin before DuckDB opens the profile's `path` (the working copy). The plugin

- checks that the profile's working copy is the one the biasmirror CLI uses for the published file it names
  (so dbt and Python can never write different files);
- takes the writer lock (waiting for another writer as BIASMIRROR_LOCK_TIMEOUT says, with a message naming it),
  unless this process already holds it (the CLI does); a lock taken here is held until the process exits;
- seeds the working copy from the published file when only the latter exists;
- marks not published the builds that the working copy records as publishing but that the published file does
  not hold (their publish was killed or failed: biasmirror.build_record.reconcile_build_records);
- registers the SQL functions `biasmirror_publish(path)`, which the on-run-end hook (macro `publish_warehouse`)
  calls after a checkpoint when every node of a `dbt build` succeeded: it replaces the published file atomically
  with a byte copy of the working copy ('') or with the compacted copy at `path`; and
  `biasmirror_publish_target()`, the path where the hook writes a compacted copy (COPY FROM DATABASE).
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path
from typing import Any

from dbt.adapters.duckdb.plugins import BasePlugin

from biasmirror.paths import DEFAULT_WAREHOUSE, WAREHOUSE_ENV, WORKING_COPY_ENV, working_path
from biasmirror.warehouse.lock import acquire, current_command, holds
from biasmirror.build_record import reconcile_build_records
from biasmirror.warehouse.publish import compaction_target, publish, seed_working_copy


class WarehouseConfigError(RuntimeError):
    """profiles.yml points dbt at a working copy that does not belong to the published file it names."""


class Plugin(BasePlugin):
    def initialize(self, plugin_config: dict[str, Any]) -> None:
        published = Path(str(plugin_config.get("published") or DEFAULT_WAREHOUSE)).expanduser().resolve()
        working = Path(str(self.creds.path)).expanduser().resolve()
        expected = working_path(published)  # refuses a working copy that is the published file
        if working != expected:
            raise WarehouseConfigError(
                f"profiles.yml makes dbt write {working}, but the working copy of the published warehouse "
                f"{published} is {expected}. Set {WAREHOUSE_ENV} (and {WORKING_COPY_ENV} if you moved the working "
                "copy) the same way for dbt and for biasmirror, and keep the profile's path and the biasmirror "
                "plugin's `published` as shipped.")
        if not holds(working):
            # a plain `dbt` process: hold the lock until it exits (the OS releases it, however it exits)
            acquire(working, command=current_command(), published=published)
        seed_working_copy(working, published)
        reconcile_build_records(working, published)
        self.published = published
        self.working = working
        # DuckDB imports pandas the first time it calls a Python function (about a second, more on a busy
        # machine); import it while dbt builds (DuckDB releases the GIL while it runs SQL), not in the publish.
        threading.Thread(target=importlib.import_module, args=("pandas",), name="biasmirror-warm-up",
                         daemon=True).start()

    def configure_connection(self, conn: Any) -> None:
        from duckdb.sqltypes import VARCHAR

        conn.create_function("biasmirror_publish", self._publish, [VARCHAR], VARCHAR, side_effects=True)
        conn.create_function("biasmirror_publish_target", self._target, [], VARCHAR, side_effects=True)

    def _target(self) -> str:
        return str(compaction_target(self.published))

    def _publish(self, compacted: str) -> str:
        result = publish(self.working, self.published, Path(compacted) if compacted else None)
        kind = "compacted" if result.compacted else "copied"
        return f"{result.path} ({result.bytes / 1e6:,.1f} MB {kind} in {result.seconds:.2f} s)"
