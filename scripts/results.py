#!/usr/bin/python3
"""Summary tables of glimpse run files (the reader is the Python package's glimpse.runs).

    scripts/results.py EXPERIMENT|RUN.h5 ...      prints the summary table
    scripts/results.py --pivot [--order=a,b,..] [--row-order=t,u,..] EXPERIMENT|RUN.h5 ...
        pooled over seeds, tasks x attentions:
        mean +- std (n) of the validation-selected test error, images/s, wall time per cell
    scripts/results.py --seeds EXPERIMENT|RUN.h5 ...
        one row per configuration pooled over seeds, best validation error first: validation and
        test error (mean +- std), 95% interval, gradient variance and SNR, images/s, wall time
    scripts/results.py --rows EXPERIMENT ...
        one row per configuration of each experiment, in the order given, named by the experiment: the
        task, n, validation and validation-selected test error, the 95% interval and RAM's published
        error on that task (the headline table of README.md)
    scripts/results.py --selection [--last=K] EXPERIMENT|RUN.h5 ...
        one row per configuration pooled over seeds: validation and test error at the selected
        evaluation (the lowest validation error) and averaged over the last K evaluations (default
        10), each with its gap test - validation; the gap at the selected one minus the gap over the
        last ones is the selection's optimism (the minimum of a noisy curve is biased low)
    scripts/results.py --paired A.h5 B.h5 [--checkpoint=best|last] [--split=test|val] [--canvas-seed=S]
        two runs compared image by image on the same images: each evaluated by glimpse eval (never
        recorded) on the canvases of seed S (default: A's seed), their errors, the difference with its
        paired bootstrap 95% interval, the images only one of them gets wrong and McNemar's exact p;
        two runs of one seed that both stored their test answers at the selected evaluation
        (/best_test) are compared on those, with no evaluation, curves-only copies included
    scripts/results.py --stats EXPERIMENT ...
        every configuration of the experiments, pooled over seeds: n, mean +- std, the interquartile
        mean, each with a bootstrap 95% interval over the seeds, and against the first configuration
        the probability that a run of the first has the lower error and the seeds per side the observed
        difference would need (glimpse.stats)
    scripts/results.py --improvement EXPERIMENT ...
        every pair of configurations (pooled over seeds): the probability that a run of the row's
        configuration has a lower validation-selected test error than a run of the column's, with its
        two-sample bootstrap 95% interval (glimpse.stats.improvement_table)
    scripts/results.py --profile [--by=attention] [--seeds=S,S,...] EXPERIMENT|RUN.h5 ...
        performance profiles across tasks (glimpse.stats.performance_profile): per value of --by, the
        fraction of its runs whose validation-selected test error is within 1.1, 1.5, 2 and 4 times
        the best mean of any value on that task, averaged over the tasks, with bootstrap 95% bands;
        with --seeds each EXPERIMENT is a benchmark's rows (--report) and only the runs of its rows
        whose every seed of S finished count (the benchmark across its tasks)
    scripts/results.py --evaluations EXPERIMENT|RUN.h5 ...
        the glimpse eval results recorded in each run file (/evaluations), per split, checkpoint,
        epoch and M: the error on the run's own canvases and on canvases of other seeds
        (glimpse eval --canvas-seed S: mean +- std over the seeds)
    scripts/results.py --grad-norms EXPERIMENT|RUN.h5 ...
        per run trained with --grad-norms: each module's gradient norm (median over the second half of
        its logged steps, before clipping) and the read's (location) over the classifier's (action)
    scripts/results.py --levers EXPERIMENT
        the screening protocol's choice (glimpse.screens; results/benchmark/README.md): per kind, the
        best validation error of its base screen and of each lever's (KIND-LEVER, as the experiment's
        runs.txt plans them), the levers at least 1 point better and the recipe the rule chooses, or
        the screens still to run; validation only
    scripts/results.py --recipes SCREENS ROWS STAGE [--write|--check]
        the rule's recipes as runs: per kind the rule has decided, the screen whose options are its
        recipe and its row's options (glimpse.screens.row_lines), which are the lines of
        experiments/ROWS/runs.txt and, for curriculum recipes, of experiments/STAGE/runs.txt (each
        seed's source; STAGE "-": no sources, every recipe trains on the rows' task alone); --write
        puts them below each file's leading comments, --check exits 1 when a file's lines differ (the
        test generated_tables)
    scripts/results.py --dirty
        per experiment folder with any, its committed run files and how many a build with uncommitted
        changes made (their source_commit ends in -dirty): numbers no committed source reproduces
    scripts/results.py --kept
        what the repository's migration has left (docs/results.md), per experiment (results/NAME) with any:
        its committed run files that keep parameters the rule does not ask for (not the first seed
        of a configuration of two or more seeds, and named by no test, script, doc, README or
        experiment, where a source that only finished runs start from (--init-from) counts as not
        named) and those that store logged canvases their task renders again, with their MB;
        --kept --files: those files, a line each, with the copy that converts it (curves-only or slim)
    scripts/results.py --report EXPERIMENT [EXPERIMENT ...] --seeds=S,S,... [--rows=ROW,ROW,...]
        a benchmark's rows (glimpse.rows): per row of experiments/EXPERIMENT/runs.txt (of every
        EXPERIMENT named, or only the ROWs given, in their order: rows of several experiments that
        share a task compared in one report), the seeds of S
        finished; for a row whose every seed finished, its validation error, its validation-selected
        test error (mean +- std, 95% interval) and interquartile mean with a bootstrap interval, and the
        probability of improvement between complete rows, and their models image by image over the
        seeds both stored test answers for (/best_test); a row still training shows no test error
    scripts/results.py --compare EXPERIMENT_A EXPERIMENT_B
        two experiments of one configuration each (runs that differ only in seed, at least 2 a side):
        their validation error and validation-selected test error, mean +- std, and Welch's t-test
        of each difference (t, degrees of freedom, two-sided p)

--hide-test, before or after the mode: every test error shows as "-" (NaN in the plain table) and the
test split's glimpse evals are left out, as glimpse summarize --hide-test shows them: a row still
training read without its test error (the modes whose output is test errors alone refuse it).

EXPERIMENT reads each full file results/EXPERIMENT/ID.h5 and the slim copy results/EXPERIMENT/runs/ID.h5
of each run whose full file is absent (a fresh clone holds only these). From Python the same reader
is glimpse.runs (load_run, load_runs, load_experiment, group_seeds, ...).
"""
import os
import re
import sys

import pandas as pd

# Experiment names and the compiled part are this checkout's, whichever checkout Python's glimpse.pth names.
os.environ.setdefault("GLIMPSE_ROOT", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import glimpse
    from glimpse.runs import (
        ROOT,
        SUMMARY,
        best_test_answers,
        configuration_groups,
        errors_by,
        group_seeds,
        load_run,
        load_runs,
        run_paths,
    )
    from glimpse.tables import (
        compare_table,
        evaluations_table,
        grad_norms_table,
        paired_table,
        pivot_table,
        rows_table,
        seeds_table,
        selection_table,
    )
except ImportError as e:
    sys.exit(f"results.py: the glimpse Python package cannot be imported ({e}): run scripts/setup")


def paired(argv):
    """results.py --paired: evaluates both runs with glimpse eval --predictions and compares them."""
    import subprocess
    import tempfile

    opts = dict(a[2:].split("=", 1) for a in argv if a.startswith("--") and "=" in a)
    runs_ = [a for a in argv if not a.startswith("--")]
    if len(runs_) != 2 or set(opts) - {"checkpoint", "split", "canvas-seed"}:
        print("results.py: --paired takes two run files and --checkpoint=, --split=, --canvas-seed=", file=sys.stderr)
        return 2
    seeds = [str(load_run(r)["config"]["seed"]) for r in runs_]
    seed = opts.get("canvas-seed") or seeds[0]
    stored = [best_test_answers(r) for r in runs_]
    if (
        opts.get("checkpoint", "best") == "best"
        and opts.get("split", "test") == "test"
        and seeds == [seed, seed]
        and all(p is not None for p in stored)
    ):  # the trainer's own answers at each selected evaluation: no parameters, no evaluation needed
        print(paired_table(runs_[0], stored[0], runs_[1], stored[1]))
        return 0
    binary = os.environ.get("GLIMPSE_BIN") or os.path.join(ROOT, "build", "glimpse")
    preds = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, run in enumerate(runs_):
            csv = os.path.join(tmp, f"{i}.csv")
            done = subprocess.run(
                [
                    binary,
                    "eval",
                    "--run",
                    run,
                    "--no-record",
                    "--checkpoint",
                    opts.get("checkpoint", "best"),
                    "--split",
                    opts.get("split", "test"),
                    "--canvas-seed",
                    seed,
                    "--predictions",
                    csv,
                ],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                print(
                    f"results.py: glimpse eval of {run} failed: {done.stdout.strip()[-300:]} {done.stderr.strip()[-300:]}",
                    file=sys.stderr,
                )
                return 1
            preds.append(pd.read_csv(csv))
    print(paired_table(runs_[0], preds[0], runs_[1], preds[1]))
    return 0


def config_epochs(name):
    """The epochs of experiments/NAME/config.ini."""
    with open(os.path.join(ROOT, "experiments", name, "config.ini")) as f:
        for line in f:
            key, _, value = line.partition("=")
            if key.strip() == "epochs":
                return int(value)
    raise SystemExit(f"results.py: experiments/{name}/config.ini sets no epochs")


def recipes(argv):
    """results.py --recipes SCREENS ROWS STAGE [--write|--check]."""
    from glimpse import screens

    mode = argv[3] if len(argv) == 4 else None
    if len(argv) not in (3, 4) or mode not in (None, "--write", "--check"):
        print("results.py: --recipes takes SCREENS ROWS STAGE and --write or --check", file=sys.stderr)
        return 2
    name, rows, stage = (re.sub(r"/runs$", "", a) for a in argv[:3])
    stage = None if stage == "-" else stage
    options = screens.planned_options(os.path.join(ROOT, "experiments", name, "runs.txt"))
    chosen = screens.recipes(load_runs(run_paths([name])), options)
    rest = config_epochs(rows) - config_epochs(stage) if stage else 0
    lines = screens.row_lines(chosen, options, stage, rest)
    if mode is None:
        print("| kind | recipe | the row's options |\n|---|---|---|")
        for (kind, screen), line in zip(chosen.items(), lines[0]):
            print(f"| {kind} | {screen} | `{line[len(kind):].strip()}` |")
        return 0
    stale = 0
    for experiment, want in zip((rows, stage) if stage else (rows,), lines):
        path = os.path.join(ROOT, "experiments", experiment, "runs.txt")
        with open(path) as f:
            text = f.read().splitlines()
        head = []
        for line in text:
            if line.strip() and not line.startswith("#"):
                break
            head.append(line)
        have = [line for line in text[len(head) :] if line.strip() and not line.startswith("#")]
        if mode == "--write":
            with open(path, "w") as f:
                f.write("\n".join(head + want) + "\n")
            print(f"[recipes] {path}: {len(want)} runs")
        elif [" ".join(x.split()) for x in have] != [" ".join(x.split()) for x in want]:
            print(f"stale: {os.path.relpath(path, ROOT)}: the rule gives", *want, sep="\n  ", file=sys.stderr)
            stale = 1
    return stale


def dirty_table():
    """results.py --dirty: per experiment folder, its committed run files and how many of them a
    build with uncommitted changes made (source_commit ending in -dirty); git's tracked files only."""
    import subprocess

    import h5py

    listed = subprocess.run(["git", "ls-files", "results/*.h5"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        print("results.py: --dirty reads git's tracked files; this tree has no git", file=sys.stderr)
        return 1
    counts = {}
    for rel in listed.stdout.split():
        folder = re.sub(r"/runs$", "", os.path.dirname(rel))[len("results/") :]
        with h5py.File(os.path.join(ROOT, rel), "r") as f:
            commit = f.attrs.get("source_commit", b"")
        commit = commit.decode() if isinstance(commit, bytes) else str(commit)
        n, dirty = counts.get(folder, (0, 0))
        counts[folder] = (n + 1, dirty + commit.endswith("-dirty"))
    print("| experiment | run files | made by a build with uncommitted changes |\n|---|---|---|")
    for folder, (n, dirty) in sorted(counts.items()):
        if dirty:
            print(f"| {folder} | {n} | {dirty} |")
    # The total counts only such files, so a new clean run file leaves the table as it is.
    print(f"| all | - | {sum(dirty for _, dirty in counts.values())} |")
    return 0


def beyond_rule(files, named):
    """The files of `files` (path, configuration, seed, parameter bytes) whose parameters the rule
    (docs/results.md, "What the repository keeps") does not ask to keep: with parameters, not the
    lowest seed of a configuration that has two or more, and matching no name of `named` (paths, a
    name results/X/ID.h5 naming its committed copy results/X/runs/ID.h5 too, where
    {seed} and a shell variable $NAME stand for any part of a file name; a glob, or a variable in a
    folder's name, names no file: what reads every file of a folder reads its curves)."""
    any_part = r"\\\{seed\\\}|\\\$[A-Za-z_]\w*|\\\$\\\{[A-Za-z_]\w*\\\}"
    named = [n for n in named if "*" not in n and not re.search(r"[${]", os.path.dirname(n))]
    named += [os.path.join(os.path.dirname(n), "runs", os.path.basename(n)) for n in named]  # a run's committed copy
    names = [re.sub(any_part, "[^/]*", re.escape(n)) + "$" for n in named]
    pattern = re.compile("|".join(names) or "(?!)")
    seeds_of = {}  # (folder, configuration): its seeds
    for path, config, seed, _ in files:
        seeds_of.setdefault((os.path.dirname(path), config), []).append(seed)
    out = []
    for path, config, seed, size in files:
        seeds = seeds_of[(os.path.dirname(path), config)]
        if size and not (len(seeds) >= 2 and seed == min(seeds)) and not pattern.match(path):
            out.append((path, size))
    return out


def finished_sources():
    """The --init-from sources that only finished runs start from: per line of every
    experiments/**/runs.txt that starts from a file, its source, unless a committed copy of that run
    (results/NAME/runs/ID.h5 or ID-sS.h5) is missing or unfinished, or another line still needs it.
    A source that names a seed ({seed}: a curriculum row, each seed starting from its own source) is
    released seed by seed: S's source once the committed copy ID-sS has finished. A finished run never
    reads its source again: `scripts/sweep` skips it."""
    import glob

    from glimpse import screens

    done, needed = set(), set()
    for plan in glob.glob(os.path.join(ROOT, "experiments", "**", "runs.txt"), recursive=True):
        name = os.path.relpath(os.path.dirname(plan), os.path.join(ROOT, "experiments"))
        for run_id, options in screens.planned_options(plan).items():
            words = options.split()
            if "--init-from" not in words or words.index("--init-from") + 1 >= len(words):
                continue
            source = words[words.index("--init-from") + 1]
            runs_dir = os.path.join(ROOT, "results", name, "runs")
            copies = [
                p
                for p in glob.glob(os.path.join(runs_dir, run_id + "*.h5"))
                if re.fullmatch(re.escape(run_id) + r"(-s\d+)?\.h5", os.path.basename(p))
            ]
            df = load_runs(copies) if copies else None
            if "{seed}" in source:  # each finished seed's own source; the others stay needed
                for _, r in df.iterrows() if df is not None else []:  # each copy by its own path
                    seed = re.fullmatch(re.escape(run_id) + r"-s(\d+)\.h5", os.path.basename(r["path"]))
                    if seed and r["epochs_done"] >= r["epochs"]:
                        done.add(source.replace("{seed}", seed.group(1)))
                continue
            finished = df is not None and all(df["epochs_done"] >= df["epochs"])
            (done if finished else needed).add(source)
    return done - needed


RUN_PATH = r"results/[A-Za-z0-9_./{}*$-]+\.h5"  # a run file's path as a doc, script or test writes it


def named_in_doc(text):
    """The run files a markdown text names outside its generated tables: a table's command and rows
    (from "<!-- table: " to "<!-- end table -->") read stored series, never a file's parameters."""
    return set(re.findall(RUN_PATH, re.sub(r"<!-- table: .*?<!-- end table -->", "", text, flags=re.S)))


def kept_table(files_only=False):
    """results.py --kept: beyond_rule over git's tracked run files, the names being every results/
    path that git's tracked tests, scripts, docs, READMEs and experiments write (outside a generated
    table's block: its command and rows read stored series, never parameters), less the sources that
    only finished runs start from (finished_sources) where no file outside experiments/ names them."""
    import subprocess

    import h5py

    listed = subprocess.run(["git", "ls-files", "results/*.h5"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        print("results.py: --kept reads git's tracked files; this tree has no git", file=sys.stderr)
        return 1

    def grep(where):
        out = subprocess.run(
            ["git", "grep", "-h", "-o", "-E", RUN_PATH, "--"] + where, cwd=ROOT, capture_output=True, text=True
        )
        return set(out.stdout.split())

    docs = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    outside = grep(["tests", "scripts", "src/python"])
    for doc in docs:
        with open(os.path.join(ROOT, doc)) as f:
            outside |= named_in_doc(f.read())
    tracked = listed.stdout.split()
    planned = set()  # a row's {seed} source names each seed's committed source, released seed by seed
    for name in grep(["experiments"]):
        pattern = re.compile(re.escape(name).replace(re.escape("{seed}"), r"\d+") + "$")
        planned |= {t for t in tracked if pattern.match(t)} if "{seed}" in name else {name}
    named = outside | (planned - (finished_sources() - outside))
    files, canvases = [], {}
    for rel in tracked:
        with h5py.File(os.path.join(ROOT, rel), "r") as f:
            run_id = f.attrs.get("run_id", b"")
            seed = int(f.attrs.get("seed", b"0") or 0)
            size = []
            f.visititems(lambda n, o: size.append(o.id.get_storage_size()) if n.split("/")[-1] == "params" else None)
            if "trajectories/image" in f:  # logged canvases of a file from before the trainer dropped them
                canvases[rel] = f["trajectories/image"].id.get_storage_size()
        run_id = run_id.decode() if isinstance(run_id, bytes) else str(run_id)
        config = re.sub(r"-s\d+$", "", run_id or os.path.basename(rel)[: -len(".h5")])
        files.append((rel, config, seed, sum(size)))
    beyond = beyond_rule(files, named)
    if files_only:  # what converts each: a curves-only copy, or a slim copy of a file that keeps its parameters
        strip = {path for path, _ in beyond} | {path for path, _, _, size in files if not size}
        for path in sorted({path for path, _ in beyond} | set(canvases)):
            print(path, "curves-only" if path in strip else "slim")
        return 0
    # folder: [files beyond the rule, their parameters' bytes, files with canvases, their canvases' bytes,
    # those files' whole bytes (what converting them rewrites)]
    counts = {}
    for i, pairs in enumerate([beyond, canvases.items()]):
        for path, size in pairs:
            c = counts.setdefault(path.split("/")[1], [0, 0, 0, 0, 0])  # the experiment: results/NAME/...
            c[2 * i] += 1
            c[2 * i + 1] += size
            if i == 1:
                c[4] += os.path.getsize(os.path.join(ROOT, path))
    print(
        "| experiment | files keeping parameters beyond the rule | their parameters, MB | files storing logged canvases "
        "| their canvases, MB | those files whole, MB |"
    )
    print("|---|---|---|---|---|---|")
    for folder, c in sorted(counts.items()):
        print(f"| {folder} | {c[0]} | {c[1] / 1e6:.1f} | {c[2]} | {c[3] / 1e6:.1f} | {c[4] / 1e6:.1f} |")
    t = [sum(c[i] for c in counts.values()) for i in range(5)]
    print(f"| all | {t[0]} | {t[1] / 1e6:.1f} | {t[2]} | {t[3] / 1e6:.1f} | {t[4] / 1e6:.1f} |")
    return 0


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    hide_test = "--hide-test" in argv
    argv = [a for a in argv if a != "--hide-test"]
    if hide_test and (not argv or argv[0] in ("--stats", "--improvement", "--profile", "--paired")):
        mode = argv[0] if argv else "nothing"
        print(f"results.py: --hide-test: {mode} shows test errors only (a running row: --report)", file=sys.stderr)
        return 2

    def read(items):
        return load_runs(run_paths(items), hide_test=hide_test)

    if argv[0] == "--seeds":
        print(seeds_table(group_seeds(read(argv[1:]))))
        return 0
    if argv[0] == "--rows":
        if len(argv) < 2:
            print("results.py: --rows takes experiments", file=sys.stderr)
            return 2
        named = [(re.sub(r"/runs$", "", a), group_seeds(read([a]))) for a in argv[1:]]
        print(rows_table(named))
        return 0
    if argv[0] in ("--stats", "--improvement"):
        from glimpse import stats

        named = []
        for a in argv[1:]:
            df = read([a])
            for _, g in group_seeds(df).iterrows():
                errors = [df.loc[df["run"] == r, "test_error_at_best"].iloc[0] for r in g["runs"]]
                named.append((f"{re.sub(r'/runs$', '', a)}: {g['id']}", [e for e in errors if e == e]))
        if not named:
            print(f"results.py: {argv[0]} takes experiments", file=sys.stderr)
            return 2
        print(stats.stats_table(named) if argv[0] == "--stats" else stats.improvement_table(named))
        return 0
    if argv[0] == "--profile":
        from glimpse import stats

        by = next((a.split("=", 1)[1] for a in argv[1:] if a.startswith("--by=")), "attention")
        seeds = next((a.split("=", 1)[1] for a in argv[1:] if a.startswith("--seeds=")), None)
        names = [a for a in argv[1:] if not a.startswith("--")]
        if seeds is not None and not re.fullmatch(r"\d+(,\d+)*", seeds):
            print("results.py: --profile --seeds takes S,S,...", file=sys.stderr)
            return 2
        if seeds is None:
            df = read(names)
        else:
            from glimpse import rows

            df = rows.complete_experiments(names, [int(x) for x in seeds.split(",")])
        errors = errors_by(df, by)
        if not errors:
            print("results.py: --profile: no run has a test error at its best validation error", file=sys.stderr)
            return 1
        print(stats.profile_table(errors))
        return 0
    if argv[0] == "--report":
        from glimpse import rows

        opts = dict(a[2:].split("=", 1) for a in argv[1:] if a.startswith("--") and "=" in a)
        names = [re.sub(r"/runs$", "", a) for a in argv[1:] if not a.startswith("--")]
        flags = [a for a in argv[1:] if a.startswith("--") and a.split("=", 1)[0] not in ("--seeds", "--rows")]
        if not names or flags or not re.fullmatch(r"\d+(,\d+)*", opts.get("seeds", "")):
            print(
                "results.py: --report takes experiments, --seeds=S,S,... and optionally --rows=ROW,...", file=sys.stderr
            )
            return 2
        try:
            kinds = rows.planned_rows(names, opts["rows"].split(",") if "rows" in opts else None)
        except ValueError as e:
            print(f"results.py: --report: {e}", file=sys.stderr)
            return 2
        seeds = [int(s) for s in opts["seeds"].split(",")]
        print(rows.rows_report(rows.experiments_frame(names), kinds, seeds))
        return 0
    if argv[0] == "--paired":
        return paired(argv[1:])
    if argv[0] == "--compare":
        if len(argv) != 3:
            print("results.py: --compare takes two experiments", file=sys.stderr)
            return 2
        sides = [read([a]) for a in argv[1:]]
        for name, df in zip(argv[1:], sides):
            if len(df) < 2 or len(configuration_groups(df)) != 1:
                print(
                    f"results.py: --compare: {name} holds {len(df)} runs of {len(configuration_groups(df))} "
                    "configurations; each side needs at least 2 runs of one configuration",
                    file=sys.stderr,
                )
                return 2
        print(compare_table(*sides))
        return 0
    if argv[0] == "--kept":
        return kept_table(files_only=argv[1:] == ["--files"])
    if argv[0] == "--dirty":
        return dirty_table()
    if argv[0] == "--recipes":
        return recipes(argv[1:])
    if argv[0] == "--levers":
        from glimpse import screens

        if len(argv) != 2:
            print("results.py: --levers takes one experiment", file=sys.stderr)
            return 2
        name = re.sub(r"/runs$", "", argv[1])
        plan = os.path.join(ROOT, "experiments", name, "runs.txt")
        planned = screens.planned_screens(plan) if os.path.exists(plan) else None
        print(screens.levers_table(read([argv[1]]), planned))
        return 0
    if argv[0] == "--grad-norms":
        print(grad_norms_table(read(argv[1:])))
        return 0
    if argv[0] == "--evaluations":
        print(evaluations_table([load_run(p, hide_test) for p in run_paths(argv[1:])]))
        return 0
    if argv[0] == "--selection":
        argv, last = argv[1:], 10
        if argv and argv[0].startswith("--last="):
            value = argv[0].split("=", 1)[1]
            last = int(value) if value.isdigit() else 0
            if last < 1:
                print("results.py: --last needs a positive number of evaluations", file=sys.stderr)
                return 2
            argv = argv[1:]
        print(selection_table(read(argv), last=last))
        return 0
    pivot = argv[0] == "--pivot"
    order = None
    if pivot:
        argv = argv[1:]
        row_order = None
        while argv and argv[0].startswith(("--order=", "--row-order=")):
            flag, value = argv[0].split("=", 1)
            if flag == "--order":
                order = value.split(",")
            else:
                row_order = value.split(",")
            argv = argv[1:]
    df = read(argv)
    if pivot:
        print(pivot_table(group_seeds(df), order=order, row_order=row_order))
        return 0
    cols = ["run", "env", "attention", "baseline", "samples", "glimpses"] + SUMMARY
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(df[[c for c in cols if c in df.columns]].to_string(index=False))
    return 0


if __name__ == "__main__":
    glimpse.check_checkout()
    try:
        sys.exit(main(sys.argv[1:]))
    except (FileNotFoundError, ValueError) as e:  # no run file, a damaged one: one line, not a traceback
        print(f"results.py: {e}", file=sys.stderr)
        sys.exit(1)
