# SPDX-License-Identifier: GPL-2.0
"""Reading a results folder: meta.json, runs.tsv, the sampler TSVs it
names and the fio JSON beside them, into Run, RunSamples (a CpuTotals and
the modelled energy per CPU, the missed deadlines of the sampler's
summary), the IOPS of each fio run and PowerModel (the emulated driver's
power table); the missed-deadline limits (MISSED_FLAG_PCT,
MISSED_EXCLUDE_PCT); the observer CPU; the errors (ReportError: exit 1;
SamplesError: one run has no samples), warnings, and the labels naming
runs, configurations and P-states."""

import json
import math
import re
import sys
from dataclasses import dataclass, field

PROG = "report"
KERNELS = ("baseline", "patched")
GOVERNORS = ("performance", "powersave", "ondemand", "conservative",
             "schedutil", "userspace")
RUNS_COLUMNS = ("kernel", "governor", "io_is_busy", "workload", "repeat",
                "order", "runtime_s", "status", "samples")
SAMPLE_COLUMNS = ("time_s", "cpu", "busy", "idle", "iowait", "freq_khz",
                  "valid")
# The ondemand io_is_busy defaults when meta.json does not say.
FALLBACK_OD_DEFAULT = {"baseline": 0, "patched": 1}
# A run whose sampler missed more than MISSED_FLAG_PCT % of its deadlines
# is flagged in the report; more than MISSED_EXCLUDE_PCT %, its samples are
# left out of the frequency and energy statistics (its runtime counts).
MISSED_FLAG_PCT = 1.0
MISSED_EXCLUDE_PCT = 10.0
# The sampler summary's line in a TSV trailer (iowait-freqmon summary.c).
MISSED_RE = re.compile(r"#\s*missed deadlines:\s*(\d+)\s*\(\s*([0-9.]+)%\)")


class ReportError(Exception):
    """A fatal problem with the input or the tools: exit 1."""


class SamplesError(Exception):
    """An unreadable or malformed sampler TSV: its run has no samples."""


@dataclass(frozen=True)
class Run:
    """One row of runs.tsv."""
    kernel: str
    governor: str
    io: object  # 0, 1 or None
    workload: str
    repeat: int
    order: int
    runtime: float
    status: int
    samples: object  # Path or None
    line: int

    @property
    def config(self):
        return (self.workload, self.kernel, self.governor, self.io)


@dataclass
class CpuTotals:
    """Sums over the valid samples of one CPU of one run (seconds)."""
    total_s: float = 0.0
    busy_s: float = 0.0
    iowait_s: float = 0.0
    busy_freq_s: float = 0.0   # busy time of samples with a frequency
    busy_mhz_s: float = 0.0    # sum of busy time x MHz
    tis: dict = field(default_factory=dict)  # freq_khz -> busy s


@dataclass
class RunSamples:
    """What one sampler TSV contributes."""
    cpus: dict            # cpu -> CpuTotals
    energy_mj: dict       # cpu -> modelled mJ of its samples with a frequency
    nofreq_rows: int      # valid rows without a frequency (excluded)
    missed_pct: object = None  # % of deadlines missed (trailer), None: absent

    @property
    def flagged(self):
        """The sampler missed more than MISSED_FLAG_PCT % of its deadlines."""
        return self.missed_pct is not None and self.missed_pct > MISSED_FLAG_PCT

    @property
    def excluded(self):
        """More than MISSED_EXCLUDE_PCT %: left out of the frequency and
        energy statistics."""
        return self.missed_pct is not None and self.missed_pct > MISSED_EXCLUDE_PCT


@dataclass(frozen=True)
class PowerModel:
    """The emulated driver's power table (a model, not a measurement)."""
    freqs_khz: tuple
    power_mw: tuple
    idle_mw: float

    def power(self, khz):
        """Power of the table entry nearest khz (ties: the lower one)."""
        i = min(range(len(self.freqs_khz)),
                key=lambda j: (abs(self.freqs_khz[j] - khz), self.freqs_khz[j]))
        return self.power_mw[i]


def warn(msg):
    print(f"{PROG}: warning: {msg}", file=sys.stderr)


# ---------------------------------------------------------------- labels

def mhz_key(khz):
    return str(khz // 1000) if khz % 1000 == 0 else f"{khz / 1000:g}"


def config_label(governor, io):
    if governor in ("ondemand", "conservative"):
        return f"{governor} io_is_busy={'absent' if io is None else io}"
    return governor if io is None else f"{governor} io_is_busy={io}"


def describe(run):
    return f"{run.kernel} {config_label(run.governor, run.io)} {run.workload} #{run.repeat}"


# ---------------------------------------------------------------- input

def load_meta(rdir):
    path = rdir / "meta.json"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ReportError(f"{path}: cannot read: {e.strerror}") from e
    try:
        meta = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}:{e.lineno}: invalid JSON: {e.msg}") from e
    if not isinstance(meta, dict):
        raise ReportError(f"{path}:1: not a JSON object")
    for key in ("workload_cpu", "sampler_cpu", "repeats"):
        if key in meta and not isinstance(meta[key], int):
            raise ReportError(f"{path}: {key} must be an integer")
    return meta


def power_model(meta):
    """The PowerModel of meta.json's emu_cpufreq, or None (with a warning)."""
    emu = meta.get("emu_cpufreq")
    try:
        freqs = tuple(int(f) for f in emu["freqs_khz"])
        power = tuple(float(p) for p in emu["power_mw"])
        idle = float(emu["idle_power_mw"])
    except (TypeError, KeyError, ValueError):
        warn("meta.json: no usable emu_cpufreq power table; energy not modelled")
        return None
    if not freqs or len(freqs) != len(power):
        warn("meta.json: emu_cpufreq freqs_khz and power_mw differ in length;"
             " energy not modelled")
        return None
    return PowerModel(freqs, power, idle)


def observer_cpu(meta):
    """The observer, the sampler's CPU (meta.json sampler_cpu, else
    observer.cpu), or None when meta.json names neither."""
    if isinstance(meta.get("sampler_cpu"), int):
        return meta["sampler_cpu"]
    obs = meta.get("observer")
    if isinstance(obs, dict) and isinstance(obs.get("cpu"), int) \
            and not isinstance(obs["cpu"], bool):
        return obs["cpu"]
    return None


def od_default(meta, kernel):
    """io_is_busy of ondemand by default on kernel (0, 1 or None)."""
    try:
        value = meta["kernels"][kernel]["io_is_busy_default"]["ondemand"]
    except (KeyError, TypeError):
        return FALLBACK_OD_DEFAULT[kernel]
    return value if value in (0, 1) else None


def parse_int(text, what, where, minimum=None):
    try:
        value = int(text)
    except ValueError:
        raise ReportError(f"{where}: {what} '{text}' is not an integer") from None
    if minimum is not None and value < minimum:
        raise ReportError(f"{where}: {what} {value} is below {minimum}")
    return value


def parse_run(fields, path, line, rdir):
    """A Run from the fields of runs.tsv row LINE, or ReportError."""
    where = f"{path}:{line}"
    kernel, gov, io, wl, rep, order, runtime, status, samples = fields
    if kernel not in KERNELS:
        raise ReportError(f"{where}: kernel '{kernel}' is not one of {', '.join(KERNELS)}")
    if gov not in GOVERNORS:
        raise ReportError(f"{where}: governor '{gov}' is not one of {', '.join(GOVERNORS)}")
    if io not in ("0", "1", "-"):
        raise ReportError(f"{where}: io_is_busy '{io}' is not 0, 1 or -")
    if not wl or wl == "-":
        raise ReportError(f"{where}: empty workload")
    try:
        seconds = float(runtime)
    except ValueError:
        raise ReportError(f"{where}: runtime_s '{runtime}' is not a number") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise ReportError(f"{where}: runtime_s '{runtime}' is not a duration")
    if not samples:
        raise ReportError(f"{where}: empty samples column (use - for none)")
    return Run(kernel, gov, None if io == "-" else int(io), wl,
               parse_int(rep, "repeat", where, 1),
               parse_int(order, "order", where),
               seconds, parse_int(status, "status", where),
               None if samples == "-" else rdir / samples, line)


def load_runs(rdir):
    path = rdir / "runs.tsv"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise ReportError(f"{path}: cannot read: {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise ReportError(f"{path}: not UTF-8 text: {e.reason}") from e
    if not lines or tuple(lines[0].split("\t")) != RUNS_COLUMNS:
        raise ReportError(f"{path}:1: header must be: {' '.join(RUNS_COLUMNS)}"
                          " (tab-separated)")
    runs = []
    for n, line in enumerate(lines[1:], 2):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != len(RUNS_COLUMNS):
            raise ReportError(f"{path}:{n}: {len(fields)} tab-separated fields,"
                              f" expected {len(RUNS_COLUMNS)}")
        runs.append(parse_run(fields, path, n, rdir))
    if not runs:
        raise ReportError(f"{path}: no runs")
    orders = [r.order for r in runs]
    if len(set(orders)) != len(orders):
        dup = next(r for r in runs if orders.count(r.order) > 1)
        raise ReportError(f"{path}:{dup.line}: order {dup.order} appears twice")
    return runs


def sample_header(lines, path):
    """Column indexes and interval (s) from the comments and header line;
    returns (indexes, interval, number of the first data line)."""
    interval = None
    for n, line in enumerate(lines, 1):
        if line.startswith("#"):
            m = re.match(r"#\s*interval_us:\s*(\d+)", line)
            if m:
                interval = int(m.group(1)) / 1e6
            continue
        names = line.rstrip("\n").split("\t")
        missing = [c for c in SAMPLE_COLUMNS if c not in names]
        if missing:
            raise SamplesError(f"{path}:{n}: header lacks {', '.join(missing)}")
        idx = [names.index(c) for c in SAMPLE_COLUMNS]
        # freq_start_khz (iowait-freqmon 0.2): the frequency at the
        # interval's start; absent, the one at its end stands for both.
        idx.append(names.index("freq_start_khz") if "freq_start_khz" in names else idx[5])
        return idx, interval, n + 1
    raise SamplesError(f"{path}: no header line")


def parse_sample_row(line, idx, where):
    """(time, cpu, busy, iowait, freq_khz or None, valid, freq_start_khz
    or None) of one row."""
    f = line.rstrip("\n").split("\t")
    try:
        t, cpu, busy, _idle, iowait, freq, valid, fstart = (f[i] for i in idx)
        return (float(t), int(cpu), float(busy), float(iowait),
                int(freq) if freq else None, valid.strip() == "1",
                int(fstart) if fstart else None)
    except (IndexError, ValueError):
        raise SamplesError(f"{where}: malformed sample row") from None


def freq_shares(freq, fstart):
    """[(freq_khz, share)] an interval's busy time is credited to: split in
    half between the frequencies at its start and its end when they differ,
    as iowait-freqmon's summary does."""
    if freq is None:
        return []
    if fstart is None or fstart == freq:
        return [(freq, 1.0)]
    return [(fstart, 0.5), (freq, 0.5)]


def add_sample(cpu_totals, dt, busy, iowait, freq, fstart=None):
    cpu_totals.total_s += dt
    cpu_totals.busy_s += busy * dt
    cpu_totals.iowait_s += iowait * dt
    for f, share in freq_shares(freq, fstart):
        cpu_totals.busy_freq_s += share * busy * dt
        cpu_totals.busy_mhz_s += share * busy * dt * f / 1000.0
        cpu_totals.tis[f] = cpu_totals.tis.get(f, 0.0) + share * busy * dt


def load_samples(path, model):
    """RunSamples of one sampler TSV, or SamplesError."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise SamplesError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from e
    idx, interval, first = sample_header(lines, path)
    res = RunSamples({}, {}, 0)
    prev = {}
    for n, line in enumerate(lines[first - 1:], first):
        if line.startswith("#"):
            m = MISSED_RE.match(line)
            if m:
                res.missed_pct = float(m.group(2))
            continue
        if not line.strip():
            continue
        t, cpu, busy, iowait, freq, valid, fstart = parse_sample_row(line, idx, f"{path}:{n}")
        dt = t - prev.get(cpu, 0.0)
        if cpu not in prev and dt <= 0 and interval:
            dt = interval
        if dt <= 0:
            raise SamplesError(f"{path}:{n}: time_s does not increase for CPU {cpu}")
        prev[cpu] = t
        if not valid:
            continue
        add_sample(res.cpus.setdefault(cpu, CpuTotals()), dt, busy, iowait, freq, fstart)
        if freq is None:
            res.nofreq_rows += 1
        elif model:
            busy_mw = sum(share * model.power(f) for f, share in freq_shares(freq, fstart))
            res.energy_mj[cpu] = (res.energy_mj.get(cpu, 0.0)
                                  + dt * (busy * busy_mw + (1 - busy) * model.idle_mw))
    if not res.cpus:
        raise SamplesError(f"{path}: no valid samples")
    return res


def load_all_samples(runs, model):
    """{order: RunSamples} of the successful runs whose samples load."""
    out = {}
    for run in runs:
        if run.status != 0:
            continue
        if run.samples is None:
            warn(f"runs.tsv:{run.line}: run {run.order} ({describe(run)}) has no"
                 " samples file; reported as no samples")
            continue
        try:
            out[run.order] = load_samples(run.samples, model)
        except SamplesError as e:
            warn(f"{e}; run {run.order} ({describe(run)}) reported as no samples")
    return out


# ---------------------------------------------------------------- fio

def fio_path(run):
    """rN.fio.json beside a run's samples rN.tsv, or None without samples."""
    if run.samples is None:
        return None
    name = run.samples.name
    return run.samples.with_name((name[:-4] if name.endswith(".tsv") else name) + ".fio.json")


def load_fio_iops(path):
    """IOPS of one fio --output-format=json file: jobs[].read.iops summed
    over the jobs; ValueError saying what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read: {getattr(e, 'strerror', None) or e}") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        # fio may write notes before the JSON: retry from the line opening it
        data, start = None, text.find("\n{")
        if start >= 0 and not text.lstrip().startswith("{"):
            try:
                data = json.loads(text[start + 1:])
            except json.JSONDecodeError:
                pass
        if data is None:
            raise ValueError(f"invalid JSON (line {e.lineno}: {e.msg})") from None
    jobs = data.get("jobs") if isinstance(data, dict) else None
    if not isinstance(jobs, list) or not jobs:
        raise ValueError("no jobs")
    total = 0.0
    for i, job in enumerate(jobs):
        try:
            iops = job["read"]["iops"]
        except (KeyError, TypeError):
            raise ValueError(f"jobs[{i}] has no read.iops") from None
        if isinstance(iops, bool) or not isinstance(iops, (int, float)) \
                or not math.isfinite(iops) or iops < 0:
            raise ValueError(f"jobs[{i}].read.iops {iops!r} is not a rate")
        total += iops
    return total


def load_all_iops(runs, on_warn=None):
    """{order: IOPS} of the successful runs with fio's JSON: every run of a
    fio-* workload (a warning, to on_warn or warn, when its JSON is missing
    or malformed) and any other run with one."""
    on_warn = on_warn or warn
    out = {}
    for run in runs:
        if run.status != 0:
            continue
        path = fio_path(run)
        fio = run.workload.startswith("fio-")
        if path is None:
            if fio:
                on_warn(f"runs.tsv:{run.line}: run {run.order} ({describe(run)}) has no"
                        " samples path, so no fio JSON; no IOPS")
            continue
        if not fio and not path.exists():
            continue
        try:
            out[run.order] = load_fio_iops(path)
        except ValueError as e:
            on_warn(f"{path}: {e}; run {run.order} ({describe(run)}) has no IOPS")
    return out
