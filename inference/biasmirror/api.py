"""The Python API: a biasmirror warehouse for notebooks and scripts, DataFrames in and DataFrames out.

>>> from biasmirror import Warehouse
>>> wh = Warehouse("biasmirror.duckdb")
>>> wh.import_pairs(pairs, dataset="mydata", model="mymodel")   # doctest: +SKIP
>>> wh.build()                                                  # doctest: +SKIP
>>> wh.paired_metrics(dataset="mydata", stratum="overall")      # doctest: +SKIP

Every method does what the command of the same name does, with the same code, the same checks and the same
errors (raised as exceptions instead of printed): writers (`import_pairs`, `build`, `forget`) work on the working
copy under the writer lock, taken at the start of the call and released at its end (or held for a whole
``with Warehouse(...) as wh:`` block), so a notebook never keeps other writers waiting between cells; a
successful `build` publishes the working copy; readers read the published file, the last successful build.

With BIASMIRROR_TARGET=postgres when the object is made, the warehouse is the PostgreSQL database the libpq
variables name (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE; docs/engines.md): the same methods read and write
it through the same code as the commands, `table` through ibis's PostgreSQL backend; there is no file, working
copy or publication there.
"""

from __future__ import annotations

import os
import warnings
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence, Union

import pandas as pd

from biasmirror.paths import (LOCK_TIMEOUT_ENV, WAREHOUSE_ENV, WORKING_COPY_ENV, scoped_env, warehouse_path,
                              working_path)
from biasmirror.warehouse.catalog import column_names, has_table
from biasmirror.warehouse.postgres import POSTGRES_TARGET, TARGET_ENV, describe, uses_postgres

if TYPE_CHECKING:
    import ibis.expr.types as ir

    from biasmirror.build_summary import BuildSummary
    from biasmirror.imports.pairs import PairImport
    from biasmirror.quality.runner import CheckReport

PathLike = Union[str, "os.PathLike[str]"]
# A filter: one value, or any of several (None: no filter).
Filter = Union[None, str, Sequence[str]]

# Columns a reader sorts by, in this order, when the mart has them.
_ORDER = ("comparison", "dataset", "model", "model_a", "model_b", "prompt_set", "generator", "generator_a",
          "generator_b", "language", "setting", "setting_a", "setting_b", "seed_group", "category", "discipline",
          "explanation", "symptoms", "stratum_name", "stratum_value", "step_order", "term", "metric_source",
          "metric_order", "metric", "run_id", "pair_id")

# Columns that hold names, whose values an error may list (any other column could hold free text).
_NAME_COLUMNS = frozenset({"dataset", "model", "model_a", "model_b", "generator", "generator_a", "generator_b",
                           "setting", "setting_a", "setting_b", "stratum_name", "metric", "comparison", "language",
                           "category", "discipline", "seed_group", "prompt_set", "metric_source", "run_id", "kind"})
_MAX_LISTED = 50


class Warehouse:
    """A biasmirror warehouse: the published DuckDB file readers open, and its working copy writers use; or,
    with BIASMIRROR_TARGET=postgres when it is made, the PostgreSQL database (`engine` says which).

    Parameters
    ----------
    path : str or os.PathLike, optional
        The published warehouse file. Default: ``$BIASMIRROR_WAREHOUSE``, else ``./biasmirror.duckdb``, resolved
        when the object is made (a later change of directory does not move it). A new warehouse is created by
        the first writer (e.g. `import_pairs`) and published by the first successful `build`.
    working_copy : str or os.PathLike, optional
        The working copy writers use. Default: ``$BIASMIRROR_WORKING_COPY``, else
        ``<folder>/<stem>.work/<name>`` beside the published file.
    lock_timeout : float, optional
        Seconds a writer waits for another writer (a CLI command, a scheduled ``dbt build``, another notebook)
        before it raises `WarehouseBusy`. Default: ``$BIASMIRROR_LOCK_TIMEOUT``, else 300; 0 fails at once.

    With BIASMIRROR_TARGET=postgres, give neither `path` nor `working_copy` (a ValueError says so): the database
    is the one the libpq variables name, shared by readers and writers without a lock.

    Notes
    -----
    Each writing call takes the writer lock when it starts and releases it when it returns (or raises); inside
    ``with Warehouse(...) as wh:`` the lock, once taken, is held until the block ends, so that several calls
    run as one unit no other writer can interleave with. Readers take no lock.

    The object sets the ``BIASMIRROR_*`` environment variables for the duration of each call (the command line
    and dbt read them), so use it from one thread at a time.

    Examples
    --------
    >>> wh = Warehouse("audit/biasmirror.duckdb", lock_timeout=60)   # doctest: +SKIP
    >>> with wh:                                                      # doctest: +SKIP
    ...     wh.import_pairs(pairs, dataset="mydata", model="m1")
    ...     wh.build()
    """

    def __init__(self, path: PathLike | None = None, *, working_copy: PathLike | None = None,
                 lock_timeout: float | None = None) -> None:
        #: "duckdb", or "postgres" when BIASMIRROR_TARGET=postgres as the object is made (every call uses it)
        self.engine = POSTGRES_TARGET if uses_postgres() else "duckdb"
        if self.engine == POSTGRES_TARGET and (path is not None or working_copy is not None):
            raise ValueError("BIASMIRROR_TARGET=postgres: the warehouse is the PostgreSQL database the libpq variables "
                             "name (PGHOST, PGPORT, PGUSER, PGDATABASE), not a file; leave out path and working_copy, "
                             "or unset BIASMIRROR_TARGET to open a DuckDB file")
        self.path: Path = Path(path).expanduser().resolve() if path is not None else warehouse_path()
        if self.engine != POSTGRES_TARGET and self.path.is_dir():
            raise ValueError(f"{self.path} is a folder; give the warehouse file, e.g. {self.path / 'biasmirror.duckdb'}")
        self._working_copy = Path(working_copy).expanduser().resolve() if working_copy is not None else None
        if lock_timeout is not None and (isinstance(lock_timeout, bool) or not float(lock_timeout) >= 0):
            raise ValueError(f"lock_timeout={lock_timeout!r}: use a number of seconds >= 0 (0 fails at once)")
        self._lock_timeout = None if lock_timeout is None else float(lock_timeout)
        self._block: ExitStack | None = None
        self._ibis: Any = None
        self._ibis_stamp: tuple[int, int] | None = None
        # the published file and the build last read from it (_notice_new_build)
        self._read_stamp: tuple[int, int] | None = None
        self._read_build: str | None = None

    def __repr__(self) -> str:
        if self.engine == POSTGRES_TARGET:
            return f"Warehouse({describe()})"
        return f"Warehouse({str(self.path)!r})"

    # -- environment and the writer lock ----------------------------------------------------------------------

    @contextmanager
    def _env(self) -> Iterator[None]:
        values: dict[str, str | None] = {WAREHOUSE_ENV: str(self.path),
                                         TARGET_ENV: POSTGRES_TARGET if self.engine == POSTGRES_TARGET else None}
        if self._working_copy is not None:
            values[WORKING_COPY_ENV] = str(self._working_copy)
        if self._lock_timeout is not None:
            values[LOCK_TIMEOUT_ENV] = repr(self._lock_timeout)
        with scoped_env(values):
            yield

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """One reading call: the environment, after noticing a newer published build (_notice_new_build)."""
        with self._env():
            if self.engine != POSTGRES_TARGET:
                self._notice_new_build()
            yield

    def _notice_new_build(self) -> None:
        """A build published since the last read: close this object's ibis connection, which would otherwise
        keep every connection of the process on the old build (DuckDB shares one open database per file within a
        process), then check that a new connection sees the new build; when one still sees the build read
        before, another connection of this process holds the old one open: warn (StaleBuildWarning)."""
        from biasmirror.warehouse import connect

        published = warehouse_path()
        if not published.exists():
            return  # the reader itself says so (WarehouseMissing)
        status = published.stat()
        stamp = (status.st_ino, status.st_mtime_ns)
        if self._ibis is not None and self._ibis_stamp != stamp:
            self.close()
        if stamp == self._read_stamp:
            return
        with connect(read_only=True) as con:
            build = _last_build(con)
        if self._read_stamp is not None and build is not None and build == self._read_build:
            warnings.warn(StaleBuildWarning(
                f"A newer build was published to {published}, but this process still reads the earlier one: another "
                "connection to that file is open in this process (DuckDB shares one open database per file), e.g. a "
                "duckdb.connect(...) or ibis connection in a notebook. Close it (con.close()) and read again."),
                stacklevel=4)
            return
        self._read_stamp, self._read_build = stamp, build

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One writing call: the environment, and the writer lock held from its first use to the end of the
        call (or of the enclosing `with` block, or of the command this runs inside)."""
        from biasmirror.warehouse.lock import command_scope, in_command_scope

        with self._env():
            if in_command_scope():
                yield
            else:
                with command_scope():
                    yield

    def __enter__(self) -> Warehouse:
        from biasmirror.warehouse.lock import command_scope, in_command_scope

        if self._block is not None or in_command_scope():
            raise RuntimeError("a `with Warehouse(...)` block (or a biasmirror command) is already open in this "
                               "process; nest the calls in that block instead")
        stack = ExitStack()
        stack.enter_context(command_scope())
        self._block = stack
        return self

    def __exit__(self, *exc_info: object) -> None:
        stack, self._block = self._block, None
        try:
            if stack is not None:
                stack.close()  # releases the writer lock
        finally:
            self.close()

    def close(self) -> None:
        """Close the ibis connection `table` opened (if any). Nothing else stays open between calls."""
        if self._ibis is not None:
            try:
                self._ibis.disconnect()
            finally:
                self._ibis, self._ibis_stamp = None, None

    @property
    def working_path(self) -> Path:
        """The working copy writers use (not for readers: open `path`). PostgreSQL has none (a ValueError)."""
        if self.engine == POSTGRES_TARGET:
            raise ValueError(f"{describe()} has no working copy: writers and readers share the database")
        with self._env():
            return working_path(self.path)

    # -- writers ----------------------------------------------------------------------------------------------

    def import_pairs(self, pairs: pd.DataFrame | PathLike, *, dataset: str, model: str,
                     setting: str | None = None) -> PairImport:
        """Import pairs of predictions made elsewhere (``biasmirror import-pairs``).

        Parameters
        ----------
        pairs : pandas.DataFrame or str or os.PathLike
            One row per pair: ``pair_id``, ``original_sex`` (F or M), ``original_level``,
            ``counterfactual_level`` (1-5, 1 = most urgent), optionally ``setting`` (full, text_only,
            tabular_only), ``true_level``, ``patient_id`` (the bootstrap then resamples patients with all their
            pairs) and any ``stratum_<name>`` columns. Or the path of such a CSV, CSV.gz, TSV or Parquet file.
        dataset, model : str
            Names to store the pairs under. Importing the same data set, model and setting again replaces the
            earlier pairs.
        setting : str, optional
            The setting of every row (default: the ``setting`` column, else ``full``).

        Returns
        -------
        biasmirror.imports.pairs.PairImport
            ``import_id``, ``n_pairs``, ``settings``, ``strata`` and ``ignored_columns``.

        Raises
        ------
        biasmirror.imports.tables.ImportValidationError
            Every problem of the pairs at once (rows named by number and pair id); nothing was written.
        biasmirror.warehouse.WarehouseBusy
            Another writer held the warehouse longer than `lock_timeout`.

        Notes
        -----
        The pairs go into the working copy; readers (`paired_metrics`, ...) see them after the next successful
        `build`.
        """
        from biasmirror.imports.pairs import import_pairs

        source = pairs if isinstance(pairs, pd.DataFrame) else Path(pairs).expanduser()
        with self._writing():
            return import_pairs(source, dataset, model, setting)

    def build(self, *, select: Sequence[str] | None = None, resamples: int | None = None, seed: int | None = None,
              mimic_root: PathLike | None = None, bordeaux_root: PathLike | None = None,
              variables: dict[str, Any] | None = None, quiet: bool = False, full: bool = False,
              unit_tests: bool | None = None, dbt_log: bool = False, compact: bool = False) -> BuildSummary:
        """Run ``dbt build`` on the working copy and publish it when every model and test passed
        (``biasmirror build``); return what was built.

        Parameters
        ----------
        select : sequence of str, optional
            A dbt selection. Default: after imports of pairs alone (and a full build before them), only the
            models and tests the imported pairs feed, with the vars of the last full build; otherwise everything.
        resamples, seed : int, optional
            Bootstrap resamples and seed (dbt vars ``bootstrap_resamples``, ``bootstrap_seed``; default 1000
            and the project's seed). Any var makes the build a full one.
        mimic_root, bordeaux_root : str or os.PathLike, optional
            Folder of a MIMIC-IV download or of the Bordeaux extract; checked, and remembered in the warehouse
            when the build succeeds.
        variables : dict, optional
            Further dbt vars (as ``--vars``), e.g. ``{"ci_level": 0.9}``; every var is validated before anything
            is built.
        quiet : bool, default False
            No progress line (dbt's errors are still shown).
        full : bool, default False
            Build every node, whatever changed.
        unit_tests : bool, optional
            Run dbt's unit tests of the macros (default: ``$BIASMIRROR_UNIT_TESTS``, else only when ``$CI`` is set).
        dbt_log : bool, default False
            Show dbt's node log on the console instead of the progress line (it always goes to ``dbt.log``).
        compact : bool, default False
            Publish a compacted copy (live rows only) instead of a byte copy, whose free blocks can hold removed
            rows: after removing patients from an extract (``docs/security.md``). Slower; a full build unless
            `select` is given.

        Returns
        -------
        biasmirror.build_summary.BuildSummary
            The selection and why, every node with its status and seconds (``.frame()``), the published file
            and dbt's log file; ``print(summary)`` says it in a few lines.

        Raises
        ------
        biasmirror.dbt_runner.DbtFailed
            A model, test or var check failed (dbt's output says which; ``error.summary`` is what ran);
            nothing was published.
        FileNotFoundError
            A data set folder lacks its files.
        """
        from biasmirror.dbt_runner import build

        with self._writing():
            return build(select=list(select) if select else None, resamples=resamples, seed=seed,
                         mimic_root=Path(mimic_root) if mimic_root is not None else None,
                         bordeaux_root=Path(bordeaux_root) if bordeaux_root is not None else None,
                         variables=variables, quiet=quiet, full=full, unit_tests=unit_tests, dbt_log=dbt_log,
                         compact=compact)

    def forget(self, *, dataset: str, model: str | None = None, generator: str | None = None,
               dry_run: bool = False) -> pd.DataFrame:
        """Remove a data set, or one model or counterfactual generator of it, from the inference tables
        (``biasmirror forget --yes``).

        Parameters
        ----------
        dataset : str
            The data set (all of it, unless `model` or `generator` narrows it).
        model : str, optional
            Only this model's rows: predictions (and their repeats and parity checks), the triage model's
            record, imported pairs and their strata, and its runs.
        generator : str, optional
            Only this generator's rows: counterfactual copies with their checks, similarities and reviews, its
            runs and their LLM failures and cached answers. Not together with `model`.
        dry_run : bool, default False
            Only count the rows; change nothing.

        Returns
        -------
        pandas.DataFrame
            ``table``, ``rows``: the rows removed (or that would be) per inference table. ``attrs["run_id"]``
            is the id of the ``forget`` run that records the removal.

        Raises
        ------
        biasmirror.forget.NothingToForget
            The warehouse holds no row of the selection (the message lists what it holds).
        biasmirror.forget.ForgetError
            An empty name, or `model` and `generator` together.

        Notes
        -----
        The working copy changes; the published file keeps the rows until the next successful full `build`
        rebuilds the marts without them.
        """
        from biasmirror.forget import Selection, forget, plan

        selection = Selection(dataset, model, generator)
        with self._writing():
            result = plan(selection) if dry_run else forget(selection)
        frame = result.frame()
        frame.attrs["run_id"] = result.run_id
        return frame

    # -- checks and the report ---------------------------------------------------------------------------------

    def check(self, *, docs: PathLike = "data_docs", layers: Sequence[str] | None = None,
              mimic_root: PathLike | None = None, bordeaux_root: PathLike | None = None,
              min_parse_rate: float = 0.95, test_fraction: float | None = None,
              variables: dict[str, Any] | None = None, min_parity_agreement: float = 0.95) -> CheckReport:
        """Run the data-quality gates (Great Expectations) and write offline Data Docs (``biasmirror check``).

        Parameters
        ----------
        docs : str or os.PathLike, default "data_docs"
            Folder for the Data Docs (``index.html``) and ``summary.json``.
        layers : sequence of str, optional
            Among ``raw``, ``cohort``, ``inference``, ``audit`` (default: all).
        mimic_root, bordeaux_root : str or os.PathLike, optional
            Raw-data folders to check (default: the dbt vars, the environment, else the registered folders).
        min_parse_rate : float, default 0.95
            Least share of predictions with a level.
        test_fraction : float, optional
            Expected test share of the split (default: `variables`, else what the last build used).
        variables : dict, optional
            dbt vars as given to ``build`` (``test_fraction``, ``mimic_root``, ``bordeaux_root`` are used).
        min_parity_agreement : float, default 0.95
            Least agreement of label-probability scoring with generate-and-parse per scoring run.

        Returns
        -------
        biasmirror.quality.runner.CheckReport
            ``success`` (every gate passed), ``failures``, ``skipped``, ``docs_dir``; ``frame()`` gives every
            expectation's outcome as a DataFrame.

        Raises
        ------
        biasmirror.warehouse.WarehouseMissing
            No published warehouse (every layer but raw reads it).
        ValueError
            A bad layer name or test fraction.
        """
        from biasmirror.quality.runner import check_test_fraction, reads_warehouse, run_checks
        from biasmirror.quality.suites import LAYERS
        from biasmirror.warehouse import require_published

        chosen = list(layers) if layers else list(LAYERS)
        roots = {name: Path(path) for name, path in (("mimic", mimic_root), ("bordeaux", bordeaux_root))
                 if path is not None}
        variables = dict(variables or {})
        for value, origin in ((test_fraction, "test_fraction"), (variables.get("test_fraction"),
                                                                 "variables['test_fraction']")):
            if value is not None:
                check_test_fraction(value, origin)
        with self._env():
            if reads_warehouse(chosen, roots) and self.engine != POSTGRES_TARGET:
                require_published()
            return run_checks(Path(docs), layers=chosen, roots=roots or None, test_fraction=test_fraction,
                              min_parse_rate=min_parse_rate, variables=variables,
                              min_parity_agreement=min_parity_agreement)

    def report(self, *, out: PathLike = "report") -> Path:
        """Write the static HTML audit report from the published warehouse (``biasmirror report``).

        Parameters
        ----------
        out : str or os.PathLike, default "report"
            Folder to write ``index.html`` into (replaced only once complete).

        Returns
        -------
        pathlib.Path
            The report's ``index.html``.

        Raises
        ------
        ImportError
            matplotlib is missing (``pip install "biasmirror[report]"``).
        biasmirror.warehouse.WarehouseMissing
            No published warehouse.
        """
        try:
            import matplotlib  # noqa: F401  (the figures' only extra dependency)
        except ImportError as error:
            raise ImportError("the report draws its figures with matplotlib: pip install 'biasmirror[report]' "
                              "(or matplotlib)") from error
        from biasmirror.report.render import write_report
        from biasmirror.warehouse import require_published

        with self._env():
            published = None if self.engine == POSTGRES_TARGET else require_published()
            return write_report(Path(out).expanduser(), published).path

    # -- readers: the published file ---------------------------------------------------------------------------

    def summary(self, *, dataset: str | None = None, model: str | None = None) -> pd.DataFrame:
        """The overall paired metrics per data set, model, generator and setting (``biasmirror summary``).

        Parameters
        ----------
        dataset, model : str, optional
            Only this data set, this model.

        Returns
        -------
        pandas.DataFrame
            ``dataset, model, generator, setting, metric, estimate, ci_low, ci_high, n_pairs, n_boot, n_changed,
            is_sparse`` (the columns `summary` prints).

        Raises
        ------
        biasmirror.summary.UnknownSelection
            The published warehouse has no such data set or model (the message lists those it has), or no
            ``audit.paired_metrics`` yet.
        """
        from biasmirror.summary import overall_metrics

        with self._reading():
            return overall_metrics(dataset, model)

    def mart(self, name: str, *, schema: str = "audit", **filters: Filter) -> pd.DataFrame:
        """Any table or view of the published warehouse, filtered, as a DataFrame.

        Parameters
        ----------
        name : str
            The table, e.g. ``"sex_gap"``, ``"probability_shifts"``, ``"model_settings"`` (`marts` lists them).
        schema : str, default "audit"
            ``audit`` (the marts), or e.g. ``inference`` for what writers stored as of the last build.
        **filters : str or sequence of str
            ``column=value`` or ``column=[value, ...]``; a value the table does not hold in that column is an
            error that lists those it holds.

        Returns
        -------
        pandas.DataFrame
            The rows, sorted by the table's key columns.

        Raises
        ------
        biasmirror.summary.UnknownSelection
            No such table or column, or a filter value the table does not hold.
        """
        with self._reading():
            return _read(name, schema, {k: v for k, v in filters.items() if v is not None})

    def marts(self) -> pd.DataFrame:
        """The audit marts of the published warehouse: ``name``, ``kind`` (table or view), ``description``."""
        from biasmirror.warehouse import connect

        with self._reading(), connect(read_only=True) as con:
            if self.engine == POSTGRES_TARGET:  # dbt's persisted docs are the relations' comments there too
                return con.execute(
                    "select t.table_name as name, case when t.table_type = 'VIEW' then 'view' else 'table' end "
                    "as kind, obj_description(cast(quote_ident(t.table_schema) || '.' || quote_ident(t.table_name) "
                    "as regclass), 'pg_class') as description from information_schema.tables t "
                    "where t.table_schema = 'audit' and t.table_catalog = current_database() order by 1").df()
            return con.execute(
                "select t.table_name as name, case when t.table_type = 'VIEW' then 'view' else 'table' end as kind, "
                "coalesce(d.comment, v.comment) as description from information_schema.tables t "
                "left join duckdb_tables() d on d.schema_name = t.table_schema and d.table_name = t.table_name "
                "and d.database_name = current_database() "
                "left join duckdb_views() v on v.schema_name = t.table_schema and v.view_name = t.table_name "
                "and v.database_name = current_database() "
                "where t.table_schema = 'audit' and t.table_catalog = current_database() order by 1").df()

    def paired_metrics(self, *, dataset: Filter = None, model: Filter = None, generator: Filter = None,
                       setting: Filter = None, stratum: Filter = None, metric: Filter = None) -> pd.DataFrame:
        """``audit.paired_metrics``: every paired metric with its bootstrap confidence interval.

        Parameters
        ----------
        dataset, model, generator, setting : str or sequence of str, optional
            Filters (``imported`` is the generator of imported pairs).
        stratum : str or sequence of str, optional
            Stratum name: ``overall``, ``documented_level``, ``presentation_group``, ``age_band`` or an imported
            ``stratum_<name>`` column's name.
        metric : str or sequence of str, optional
            E.g. ``pooled_rate``, ``nmd``, ``pdr``, ``dts_m_to_f``.

        Returns
        -------
        pandas.DataFrame
            One row per data set x model x generator x setting x stratum value x metric: ``estimate``,
            ``ci_low``, ``ci_high``, ``n_pairs``, ``n_boot``, ``is_small_stratum``, ``n_changed``, ``is_sparse``.
        """
        return self.mart("paired_metrics", dataset=dataset, model=model, generator=generator, setting=setting,
                         stratum_name=stratum, metric=metric)

    def pair_outcomes(self, *, dataset: Filter = None, model: Filter = None, generator: Filter = None,
                      setting: Filter = None) -> pd.DataFrame:
        """``audit.pair_outcomes``: one row per pair: direction, both levels, delta, female and male levels,
        documented level and the pair's ``strata`` map."""
        return self.mart("pair_outcomes", dataset=dataset, model=model, generator=generator, setting=setting)

    def model_performance(self, *, dataset: Filter = None, model: Filter = None, setting: Filter = None,
                          metric: Filter = None) -> pd.DataFrame:
        """``audit.model_performance``: accuracy, weighted kappas and macro precision/recall/F1 against the
        documented level, with bootstrap CIs, per data set x model x setting."""
        return self.mart("model_performance", dataset=dataset, model=model, setting=setting, metric=metric)

    def metric_comparisons(self, *, dataset: Filter = None, comparison: Filter = None, stratum: Filter = None,
                           metric: Filter = None) -> pd.DataFrame:
        """``audit.metric_comparisons``: metric(b) - metric(a) between settings, models and generators, with
        paired bootstrap CIs. `comparison` is ``setting``, ``model`` or ``generator``; `stratum` a stratum
        name."""
        return self.mart("metric_comparisons", dataset=dataset, comparison=comparison, stratum_name=stratum,
                         metric=metric)

    def placebo_adjusted_effects(self, *, dataset: Filter = None, model: Filter = None, generator: Filter = None,
                                 stratum: Filter = None, metric: Filter = None) -> pd.DataFrame:
        """``audit.placebo_adjusted_effects``: the swap's effect minus its placebo's (same-sex rewrites of the
        same records) per metric, with a paired bootstrap CI, p-value, q-value and mde."""
        return self.mart("placebo_adjusted_effects", dataset=dataset, model=model, generator=generator,
                         stratum_name=stratum, metric=metric)

    def counterfactual_quality(self, *, dataset: Filter = None, generator: Filter = None,
                               language: Filter = None) -> pd.DataFrame:
        """``audit.counterfactual_quality``: validity of the counterfactual copies per data set x language x
        generator (flagged share, residual words of the wrong sex, content preserved, length ratio,
        similarity)."""
        return self.mart("counterfactual_quality", dataset=dataset, generator=generator, language=language)

    def counterfactual_review(self, *, dataset: Filter = None, generator: Filter = None,
                              language: Filter = None) -> pd.DataFrame:
        """``audit.counterfactual_review``: the manual review of sampled copies (invalid share with an exact
        95% interval)."""
        return self.mart("counterfactual_review", dataset=dataset, generator=generator, language=language)

    def term_associations(self, *, dataset: Filter = None, model: Filter = None, generator: Filter = None,
                          setting: Filter = None, metric: Filter = None) -> pd.DataFrame:
        """``audit.term_associations``: paired metrics over the pairs whose original notes contain each term,
        with CIs."""
        return self.mart("term_associations", dataset=dataset, model=model, generator=generator, setting=setting,
                         metric=metric)

    def cohort_flow(self, *, dataset: Filter = None) -> pd.DataFrame:
        """``audit.cohort_flow``: records left after each exclusion step, then the split."""
        return self.mart("cohort_flow", dataset=dataset)

    def scoring_parity(self, *, dataset: Filter = None, model: Filter = None) -> pd.DataFrame:
        """``audit.scoring_parity``: agreement of label-probability scoring with generate-and-parse per
        scoring run (Wilson CI), unparseable share, label mass."""
        return self.mart("scoring_parity", dataset=dataset, model=model)

    def noise_floor(self, *, dataset: Filter = None, model: Filter = None, setting: Filter = None) -> pd.DataFrame:
        """``audit.noise_floor``: the self-flip rate of re-scored originals beside the PDR and the placebo
        PDR."""
        return self.mart("noise_floor", dataset=dataset, model=model, setting=setting)

    def word_association_bias(self, *, model: Filter = None, language: Filter = None) -> pd.DataFrame:
        """``audit.word_association_bias``: the implicit-bias study's bias per category with bootstrap CIs."""
        return self.mart("word_association_bias", model=model, language=language)

    def allocation_selection_rates(self, *, model: Filter = None, language: Filter = None) -> pd.DataFrame:
        """``audit.allocation_selection_rates``: the implicit-bias study's selection rates of the transgender
        candidate, order effect and p-values."""
        return self.mart("allocation_selection_rates", model=model, language=language)

    def implicit_parse_rates(self, *, model: Filter = None, task: Filter = None) -> pd.DataFrame:
        """``audit.implicit_parse_rates``: the share of the implicit-bias study's answers that could be read, per
        model, language, task, condition and decoding, with exact intervals."""
        return self.mart("implicit_parse_rates", model=model, task=task)

    def table(self, name: str, *, schema: str = "audit") -> ir.Table:
        """A table of the published warehouse as a lazy ibis table (filter, group and join in the database,
        then ``.to_pandas()``).

        The ibis connection is opened read-only on first use, reopened when a build has published a newer
        file, and closed by `close` (or at the end of a ``with`` block). On PostgreSQL, ibis's PostgreSQL
        backend connects to the database (``pip install 'biasmirror[postgres]'``), which it reads live.
        """
        from biasmirror.warehouse import require_published

        if self.engine == POSTGRES_TARGET:
            if self._ibis is None:
                self._ibis = _ibis_postgres()
            return self._ibis.table(name, database=schema)
        with self._reading():
            published = require_published()
        status = published.stat()
        stamp = (status.st_ino, status.st_mtime_ns)
        if self._ibis is None or self._ibis_stamp != stamp:
            import ibis

            self.close()
            self._ibis = ibis.duckdb.connect(database=str(published), read_only=True)
            self._ibis_stamp = stamp
        return self._ibis.table(name, database=schema)

    def sql(self, query: str, params: Sequence[Any] | None = None) -> pd.DataFrame:
        """Run a read-only SQL query on the published warehouse (``?`` placeholders take `params`)."""
        from biasmirror.warehouse import connect

        with self._reading(), connect(read_only=True) as con:
            return con.execute(query, list(params or [])).df()


class StaleBuildWarning(UserWarning):
    """A reader read an earlier build than the one published: a connection of this process holds it open."""


def _last_build(con: Any) -> str | None:
    """The invocation id of the last build recorded in a warehouse (None before any)."""
    if not has_table(con, "inference", "dbt_builds"):
        return None
    row = con.execute("select invocation_id from inference.dbt_builds order by finished_at desc limit 1").fetchone()
    return row[0] if row else None


def _ibis_postgres() -> Any:
    """ibis's PostgreSQL backend on the database biasmirror.warehouse.connect opens (the libpq variables)."""
    from biasmirror.warehouse.postgres import connection_parameters

    try:
        import ibis
        import ibis.backends.postgres  # noqa: F401  (needs psycopg 3)
    except ImportError as error:
        raise ImportError("Warehouse.table on PostgreSQL needs ibis's PostgreSQL backend (psycopg 3): "
                          "pip install 'biasmirror[postgres]'") from error
    params = connection_parameters()
    return ibis.postgres.connect(host=params["host"], port=params["port"], user=params["user"],
                                 password=params["password"], database=params["dbname"])


def _read(name: str, schema: str, filters: dict[str, Filter]) -> pd.DataFrame:
    """Rows of one table of the published warehouse, filtered on column = value (or in values). A value the
    column does not hold raises UnknownSelection naming those it holds."""
    from biasmirror.summary import UnknownSelection
    from biasmirror.warehouse import connect

    with connect(read_only=True) as con:
        columns = column_names(con, schema, name)
        if not columns:
            raise UnknownSelection(f"The published warehouse has no {schema}.{name} (yet): check the name "
                                   "(Warehouse.marts() lists the marts), or run `build`.")
        clauses, params = [], []
        for column, wanted in filters.items():
            if column not in columns:
                raise UnknownSelection(f"{schema}.{name} has no column {column!r}; its columns: {', '.join(columns)}")
            values = [wanted] if isinstance(wanted, str) or not isinstance(wanted, Sequence) else list(wanted)
            held = [row[0] for row in con.execute(
                f'select distinct "{column}" from {schema}."{name}" where "{column}" is not null order by 1').fetchall()]
            missing = [value for value in values if value not in held]
            if missing:
                # names (data sets, models, metrics...) are listed; any other column's values could be free text
                listed = (", ".join(map(repr, held[:_MAX_LISTED])) + (" ..." if len(held) > _MAX_LISTED else "")
                          if column in _NAME_COLUMNS else f"{len(held):,} distinct values")
                listed = listed if held else "none yet"
                raise UnknownSelection(f"No {column} {', '.join(map(repr, missing))} in the published warehouse's "
                                       f"{schema}.{name}; {column} values there: {listed}.")
            clauses.append(f'"{column}" in ({", ".join("?" for _ in values)})')
            params += values
        where = f" where {' and '.join(clauses)}" if clauses else ""
        order = [f'"{column}"' for column in _ORDER if column in columns]
        order_by = f" order by {', '.join(order)}" if order else ""
        return con.execute(f'select * from {schema}."{name}"{where}{order_by}', params).df()
