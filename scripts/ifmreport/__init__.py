# SPDX-License-Identifier: GPL-2.0
"""The code of scripts/report and scripts/converged, one concern per
module: results (reading the results folder), quantiles (percentiles and
medians), bootstrap (percentile-bootstrap intervals), intervals (a
record's intervals, ratios to performance and lab-fault flag), stats
(summary.json), findings (generated sentences), figures (plot TSVs and
gnuplot), blocks (the report's content), render (Markdown and HTML), cli
(the command line; scripts/report calls cli.main) and converge (which
configs still need runs; scripts/converged calls converge.main). Some
modules import scripts/validation.py, so scripts/ must be on sys.path."""
