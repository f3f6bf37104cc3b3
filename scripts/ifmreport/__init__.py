# SPDX-License-Identifier: GPL-2.0
"""The code of scripts/report, one concern per module: results (reading the
results folder), stats (summary.json), findings (generated sentences),
figures (plot TSVs and gnuplot), blocks (the report's content), render
(Markdown and HTML) and cli (the command line; scripts/report calls
cli.main). Its modules import scripts/validation.py, so scripts/ must be on
sys.path."""
