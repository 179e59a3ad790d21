"""The static HTML audit report: reads the audit marts (DuckDB or PostgreSQL) and writes one self-contained HTML file
(inline SVG figures, no scripts, no network) that opens from disk. Entry points: `biasmirror report`
(biasmirror.report.command) and biasmirror.report.render.write_report."""
