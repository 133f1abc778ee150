"""A sweep specification (YAML) and the points it expands to.

A point is one `ssdsim run`: a platform file, `--set` overrides, the FTL and the workload
options. The grid's keys are classified once:
  platform                 the platform file (a list of files sweeps platforms)
  ftl, ftl.name            --ftl
  a `ssdsim run` option    the option itself (qd, trace, read-fraction, precondition, ...; a
                           boolean is a flag: true gives it, false leaves it out)
  anything else            --set key=value (ssdsim checks the key and the value)
Relative paths (platform, trace, jobs) are looked up in the spec file's folder, then the current
directory, then the project folder (where platforms/ and workloads/ ship).
"""
import hashlib
import itertools
import json
import os
import re

import yaml

from . import results

PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH_OPTIONS = {"platform", "trace", "jobs"}
# What the sweep decides for every point: a point may not set them.
RESERVED_OPTIONS = {"out", "report", "r", "csv", "vcd", "no-vcd", "vcd-start-us", "vcd-end-us", "vcd-signals",
                    "quiet", "q", "progress", "help", "platform", "p", "set", "ftl"}
GEOMETRY_PRODUCT = ("geometry.channels", "geometry.ways", "geometry.dies_per_way", "geometry.planes_per_die",
                    "geometry.blocks_per_plane", "geometry.pages_per_block", "geometry.page_bytes")


class SpecError(Exception):
    """A spec that cannot be run: names the spec file and the key."""


def run_options(help_text):
    """The long options of `ssdsim run` (from its --help), without the dashes."""
    return set(re.findall(r"--([a-z][a-z0-9-]*)", help_text)) - RESERVED_OPTIONS


class Point:
    """One run: its swept values (for the results' columns) and the ssdsim command line."""

    def __init__(self, values, platform, sets, ftl, options):
        self.values = values          # swept key -> value, in the spec's order
        self.platform = platform      # absolute path
        self.sets = sets              # [(key, value)] for --set
        self.ftl = ftl
        self.options = options        # [(option, value)]; value True for a flag

    def ident(self):
        """A name stable across runs of the same spec (the resume key): readable values and a hash
        of the command line and the platform file's text (an edited platform runs again)."""
        with open(self.platform, "rb") as f:
            platform_text = f.read()
        digest = hashlib.sha1(json.dumps(self.arguments()).encode() + platform_text).hexdigest()[:8]
        parts = []
        for key, value in self.values.items():
            text = os.path.basename(value) if isinstance(value, str) and os.sep in value else str(value)
            parts.append(f"{key.split('.')[-1]}={text}")
        slug = re.sub(r"[^A-Za-z0-9=.,_+-]", "_", ",".join(parts))
        if len(slug) > 80:  # whole values only: a cut value would read as another one
            cut = slug.rfind(",", 0, 80)
            slug = (slug[:cut] if cut > 0 else slug[:76]) + ",..."
        return f"{slug}-{digest}" if slug else digest

    def arguments(self):
        """`ssdsim run` arguments, outputs excluded."""
        args = ["-p", self.platform]
        if self.ftl:
            args += ["--ftl", str(self.ftl)]
        for key, value in self.sets:
            args += ["--set", f"{key}={format_value(value)}"]
        for option, value in self.options:
            if value is True:
                args.append("--" + option)
            elif value is not False and value is not None:
                args += ["--" + option, format_value(value)]
        return args


def option_name(key):
    """A spec key as an option name: `--qd` and `qd` are the same."""
    return key[2:] if key.startswith("--") else key


def format_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class Spec:
    def __init__(self, path, known_options):
        self.path = os.path.abspath(path)
        self.folder = os.path.dirname(self.path)
        try:
            with open(path) as f:
                doc = yaml.safe_load(f)
        except OSError as e:
            raise SpecError(f"{path}: cannot read the spec ({e.strerror})")
        except yaml.YAMLError as e:
            raise SpecError(f"{path}: not valid YAML: {e}")
        if not isinstance(doc, dict):
            raise SpecError(f"{path}: a spec is a mapping (platform, ftl, workload, grid, ...)")
        allowed = {"platform", "ftl", "workload", "set", "grid", "zip", "seeds", "repetitions", "preserve_capacity",
                   "timeout_s", "description", "columns", "workloads"}
        for key in doc:
            if key not in allowed:
                raise SpecError(f"{path}: unknown key '{key}' (expected one of {', '.join(sorted(allowed))})")
        self.doc = doc
        self.known_options = known_options
        self.description = doc.get("description", "")
        self.timeout_s = doc.get("timeout_s")
        if self.timeout_s is not None and (isinstance(self.timeout_s, bool) or not isinstance(self.timeout_s, (int, float))
                                           or self.timeout_s <= 0):
            raise SpecError(f"{path}: timeout_s must be a number of seconds above 0, got {self.timeout_s!r}")
        if "platform" not in doc:
            raise SpecError(f"{path}: 'platform' is missing (the base platform file)")
        if not isinstance(doc["platform"], str):
            raise SpecError(f"{path}: platform must be a file name, got {doc['platform']!r}")
        self.workload = self._mapping("workload")
        self.workloads = self._mapping("workloads")  # name -> options: one axis, column workload_name
        for name, options in self.workloads.items():
            if not isinstance(options, dict):
                raise SpecError(f"{path}: workloads.{name} must be a mapping of `ssdsim run` options")
        self.fixed_sets = self._mapping("set")
        self.axes = self._axes()
        self.preserve_capacity = bool(doc.get("preserve_capacity", False))
        if self.preserve_capacity and {"geometry.blocks_per_plane", "blocks_per_plane"} & set(self.swept_keys()):
            raise SpecError(f"{path}: preserve_capacity sets geometry.blocks_per_plane itself: do not sweep it too")
        self.columns = self._mapping("columns")  # extra results columns: name -> report path (a/b/c)
        for name, where in self.columns.items():
            if not isinstance(where, str) or not where:
                raise SpecError(f"{self.path}: columns.{name} must be a path into the report, e.g. ftl_metrics/erases")
            if name in self.swept_keys() or name in builtin_columns():
                raise SpecError(f"{self.path}: columns.{name} would replace a column the results already have")

    def _mapping(self, key):
        value = self.doc.get(key) or {}
        if not isinstance(value, dict):
            raise SpecError(f"{self.path}: '{key}' must be a mapping")
        return value

    def resolve(self, value, key):
        """A relative path: the spec's folder, then the current directory, then the project."""
        if not isinstance(value, str) or os.path.isabs(value):
            return value
        for base in (self.folder, os.getcwd(), PROJECT):
            candidate = os.path.join(base, value)
            if os.path.exists(candidate):
                return os.path.abspath(candidate)
        raise SpecError(f"{self.path}: {key}: cannot find '{value}' (looked in the spec's folder, the current "
                        f"directory and {PROJECT})")

    def _axes(self):
        """Each axis is a list of {key: value} steps: a grid key alone, or a zipped group."""
        axes = []
        grid = self._mapping("grid")
        for key, values in grid.items():
            if not isinstance(values, list) or not values:
                raise SpecError(f"{self.path}: grid.{key} must be a non-empty list of values")
            for v in values:
                if not isinstance(v, (str, int, float, bool)):
                    raise SpecError(f"{self.path}: grid.{key}: each value must be a single number, text or flag, "
                                    f"got {v!r}")
            # The platform file's column is platform_file: `platform` is the report's effective name.
            axes.append([{"platform_file" if key == "platform" else key: v} for v in values])
        groups = self.doc.get("zip") or []
        if not isinstance(groups, list):
            raise SpecError(f"{self.path}: 'zip' must be a list of groups (mappings of key -> list, equal lengths)")
        for n, group in enumerate(groups):
            if not isinstance(group, dict) or not group:
                raise SpecError(f"{self.path}: zip[{n}] must be a mapping of key -> list")
            lengths = {k: len(v) if isinstance(v, list) else -1 for k, v in group.items()}
            if min(lengths.values()) < 1 or len(set(lengths.values())) != 1:
                raise SpecError(f"{self.path}: zip[{n}]: every key needs a list, all of one length (got "
                                + ", ".join(f"{k}: {v}" for k, v in lengths.items()) + ")")
            length = next(iter(lengths.values()))
            axes.append([{k: group[k][i] for k in group} for i in range(length)])
        seen = set()
        for axis in axes:
            for key in axis[0]:
                name = option_name(key)
                if name in seen:
                    raise SpecError(f"{self.path}: '{key}' is swept twice")
                seen.add(name)
        if self.workloads:
            axes.append([{"workload_name": name} for name in self.workloads])
        seeds = self.doc.get("seeds")
        repetitions = self.doc.get("repetitions")
        if seeds is not None and repetitions is not None:
            raise SpecError(f"{self.path}: give 'seeds' or 'repetitions', not both")
        if repetitions is not None:
            if not isinstance(repetitions, int) or repetitions < 1:
                raise SpecError(f"{self.path}: repetitions must be a whole number >= 1")
            first = self.workload.get("seed", 1)
            if isinstance(first, bool) or not isinstance(first, int):
                raise SpecError(f"{self.path}: workload.seed must be a whole number, got {first!r}")
            seeds = [first + i for i in range(repetitions)]
        if seeds is not None:
            if not isinstance(seeds, list) or not seeds or not all(
                    isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seeds):
                raise SpecError(f"{self.path}: seeds must be a non-empty list of whole numbers")
            if "seed" in seen:
                raise SpecError(f"{self.path}: 'seed' is swept twice")
            axes.append([{"seed": s} for s in seeds])
        return axes

    def swept_keys(self):
        return [key for axis in self.axes for key in axis[0]]

    def points(self):
        """The cross product of the axes, in the spec's order (the last axis varies fastest)."""
        for combination in itertools.product(*self.axes) if self.axes else [()]:
            values = {}
            for step in combination:
                values.update(step)
            yield self._point(values)

    def _point(self, values):
        platform = self.resolve(values.get("platform_file", self.doc["platform"]), "platform")
        ftl = values.get("ftl", values.get("ftl.name", self.doc.get("ftl")))
        sets = [(k, v) for k, v in self.fixed_sets.items()]
        options = {}
        for key, value in self.workload.items():
            options[self._option(key, "workload")] = value
        for key, value in self.workloads.get(values.get("workload_name"), {}).items():
            options[self._option(key, f"workloads.{values['workload_name']}")] = value
        for key, value in values.items():
            if key in ("platform_file", "ftl", "ftl.name", "workload_name"):
                continue
            option = option_name(key)
            if option in self.known_options:
                options[option] = value
            elif option in RESERVED_OPTIONS:
                raise SpecError(f"{self.path}: grid key '{key}' is decided by the sweep and cannot be swept")
            else:
                sets.append((key, value))
        for option in PATH_OPTIONS & set(options):
            options[option] = self.resolve(options[option], f"workload.{option}")
        return Point(values, platform, sets, ftl, list(options.items()))

    def _option(self, key, where):
        option = option_name(key)
        if option in RESERVED_OPTIONS:
            raise SpecError(f"{self.path}: {where}.{key} is decided by the sweep (outputs, platform, --set, --ftl "
                            "have keys of their own)")
        if option not in self.known_options:
            raise SpecError(f"{self.path}: {where}.{key} is not an `ssdsim run` option (see `ssdsim run --help`)")
        return option


def builtin_columns():
    return set(results.header([]))


def effective_parameters(validate_output):
    """`ssdsim validate` output ("  key = value" lines) as a dict of text values."""
    values = {}
    for line in validate_output.splitlines():
        m = re.match(r"^\s+([a-z_][\w.]*) = (.*)$", line)
        if m:
            values[m.group(1)] = m.group(2).strip()
    return values


def preserved_blocks_per_plane(base, point):
    """blocks per plane that keep `point`'s raw capacity at `base`'s (both effective parameter
    dicts); raises ValueError when it is not a whole number."""
    def product(params, skip):
        n = 1
        for key in GEOMETRY_PRODUCT:
            if key != skip:
                n *= int(float(params[key]))
        return n
    raw = product(base, None)
    rest = product(point, "geometry.blocks_per_plane")
    if raw % rest:
        raise ValueError(f"the base platform's raw capacity ({raw} bytes) is not a whole number of blocks per plane "
                         f"at this geometry ({raw / rest:g} blocks)")
    return raw // rest
