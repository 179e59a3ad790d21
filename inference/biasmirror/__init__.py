"""biasmirror: SQL-first audits of clinical decisions for sex/gender bias with paired comparisons."""

__version__ = "0.1.0"
