"""The screening protocol's choice rule (results/benchmark/README.md, "Choice"), applied to run files.

A kind's screens are named KIND-base (its base recipe), KIND-LEVER (the base with one lever) and
KIND-combined (the base with every lever that helps), each of one seed. A lever helps a kind when its
screen's best validation error is at least `threshold` points below the base screen's. The recipe is
the base with every lever that helps; when more than one helps, the combination screen decides: the
recipe is whichever of it and the best single-lever screen has the lower best validation error. When
none helps, the recipe is the base. Validation error only: test errors are never read here.
"""
import math
import re

BASE, COMBINED = "base", "combined"


def screen_name(run):
    """KIND-LEVER of a run file's row: its run id (or file name) without the seed suffix."""
    rid = run.get("run-id")
    name = rid if isinstance(rid, str) and rid else run["run"]
    return re.sub(r"-s\d+$", "", name)


def screens_by_kind(df):
    """{kind: {lever: (best validation error %, finished)}} of a load_runs frame; a kind is a prefix
    that has a KIND-base screen. A run that did not reach its epochs is kept, marked unfinished."""
    names = {}
    for _, r in df.iterrows():
        done = r.get("epochs_done")
        epochs = r.get("epochs")
        finished = done == done and epochs == epochs and int(done) >= int(epochs)
        names[screen_name(r)] = (100 * float(r["best_val_error"]), finished)
    kinds = [n[: -len("-" + BASE)] for n in names if n.endswith("-" + BASE)]
    out = {}
    for kind in sorted(kinds, key=len, reverse=True):  # the longest prefix claims a screen
        for n in list(names):
            if n.startswith(kind + "-"):
                out.setdefault(kind, {})[n[len(kind) + 1 :]] = names.pop(n)
    return out


def choose(screens, levers, threshold=1.0):
    """The rule for one kind. screens: {lever: (val %, finished)}; levers: the levers it is screened
    on. Returns (helping levers, decision): the levers whose finished screens help so far, and the
    recipe ("base", a lever, "combined") or what has to run first ("to run: ..."), never a choice made
    on unfinished or missing screens."""
    finished = {x for x in [BASE] + list(levers) if x in screens and screens[x][1]}
    base = screens[BASE][0] if BASE in finished else None
    helps = [x for x in levers if base is not None and x in finished and base - screens[x][0] >= threshold]
    missing = [x for x in [BASE] + list(levers) if x not in finished]
    if missing:
        return helps, "to run: " + ", ".join(missing)
    if not helps:
        return helps, BASE
    if len(helps) == 1:
        return helps, helps[0]
    if COMBINED not in screens or not screens[COMBINED][1]:
        return helps, "to run: " + COMBINED + " (" + " + ".join(helps) + ")"
    best_single = min(helps, key=lambda x: screens[x][0])
    return helps, COMBINED if screens[COMBINED][0] < screens[best_single][0] else best_single


def planned_screens(runs_txt):
    """The screen names (KIND-LEVER) of an experiment's runs.txt, in its order."""
    return list(planned_options(runs_txt))


def plan(names):
    """(kinds, {kind: its levers}, every lever) of screen names KIND-LEVER in their order: a kind is a
    prefix with a KIND-base screen, the longest such prefix owns a name, and the base and the
    combination are not levers."""
    kinds = [n[: -len("-" + BASE)] for n in names if n.endswith("-" + BASE)]
    own = {k: [] for k in kinds}
    levers = []
    for n in names:
        kind = max((k for k in kinds if n.startswith(k + "-")), key=len, default=None)
        lever = n[len(kind) + 1 :] if kind else None
        if kind and lever not in (BASE, COMBINED):
            own[kind].append(lever)
            if lever not in levers:
                levers.append(lever)
    return kinds, own, levers


def levers_table(df, planned=None, threshold=1.0):
    """Markdown: per kind, the base screen's best validation error, each lever's and its difference
    from the base, the levers that help (at least `threshold` points lower) and the recipe the rule
    chooses (or the screens still to run). planned: the screen names the protocol runs (runs.txt),
    which fix each kind's levers and order; without it, the screens found. A kind not screened on a
    lever shows "n/a" there; a planned screen without a run file, "-"."""
    by_kind = screens_by_kind(df)
    own = {kind: [x for x in screens if x not in (BASE, COMBINED)] for kind, screens in by_kind.items()}
    if planned:
        kinds, own, levers = plan(planned)
        by_kind = {k: by_kind.get(k, {}) for k in kinds}
    else:
        levers = []
        for kind_levers in own.values():
            for x in kind_levers:
                if x not in levers:
                    levers.append(x)
    head = ["kind", "base val %"] + [f"{x} (diff)" for x in levers] + ["combined (diff)", "helps", "recipe"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def cell(screens, x, kind_levers):
        if x not in screens:
            return "-" if x in kind_levers or x == COMBINED else "n/a"
        v, finished = screens[x]
        if math.isnan(v):
            return "-"
        diff = v - screens[BASE][0] if BASE in screens else math.nan
        text = f"{v:.2f} ({diff:+.2f})" if diff == diff else f"{v:.2f}"
        return text + ("" if finished else " unfinished")

    for kind in by_kind if planned else sorted(by_kind):
        screens = by_kind[kind]
        helps, decision = choose(screens, own[kind], threshold)
        base = screens.get(BASE)
        base_text = "-" if base is None else f"{base[0]:.2f}" + ("" if base[1] else " unfinished")
        row = [kind, base_text] + [cell(screens, x, own[kind]) for x in levers]
        row += [cell(screens, COMBINED, own[kind]), ", ".join(helps) or "none", decision]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def planned_options(runs_txt):
    """{screen name: its options as written} of an experiment's runs.txt, in its order."""
    out = {}
    with open(runs_txt) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, *options = line.split(None, 1)
                out[name] = " ".join(options[0].split()) if options else ""
    return out


def recipes(df, options, threshold=1.0):
    """{kind: the screen whose options are its recipe} (KIND-base, KIND-LEVER or KIND-combined) of each
    kind the rule has decided, in the plan's order; options: planned_options of the screens' runs.txt,
    which fix each kind's levers. A kind with screens still to run is left out."""
    kinds, own, _ = plan(list(options))
    by_kind = screens_by_kind(df)
    out = {}
    for kind in kinds:
        _, decision = choose(by_kind.get(kind, {}), own[kind], threshold)
        if not decision.startswith("to run"):
            out[kind] = f"{kind}-{decision}"
    return out


def _without(options, flag):
    """options (a string) without `flag VALUE`."""
    words = options.split()
    while flag in words:
        at = words.index(flag)
        del words[at : at + 2]
    return " ".join(words)


def row_lines(chosen, options, stage, rest_epochs):
    """(rows' runs.txt lines, their curriculum sources' lines) for the chosen recipes: each the chosen
    screen's options without its schedule (--epochs) and start (--init-from), which the rows' own
    configuration gives. A curriculum recipe (its screen starts --init-from a source) trains its
    options on the source experiment `stage` first, per seed, and its row starts each seed from that
    seed's source for the rest of the row's images: `--init-from results/STAGE/runs/KIND-s{seed}.h5
    --epochs REST_EPOCHS` (scripts/sweep puts each run's seed for {seed}). With stage None every recipe
    trains on the rows' task alone (a task the curriculum was not screened on) and there are no sources."""
    rows, sources = [], []
    width = max((len(k) for k in chosen), default=0) + 2
    for kind, screen in chosen.items():
        own = _without(_without(options[screen], "--epochs"), "--init-from")
        if stage is not None and "--init-from" in options[screen].split():
            sources.append(f"{kind:<{width}}{own}")
            own += f" --init-from results/{stage}/runs/{kind}-s{{seed}}.h5 --epochs {rest_epochs}"
        rows.append(f"{kind:<{width}}{own}")
    return rows, sources
