#!/usr/bin/python3
"""Figures from glimpse run files: the command line of glimpse.plot (its docstring lists the figures).

    scripts/plot.py curves|trajectories|animate|variance|attention|profile RUN.h5|EXPERIMENT ... --out FILE
"""
import os
import sys

# Experiment names and the compiled part are this checkout's, whichever checkout Python's glimpse.pth names.
os.environ.setdefault("GLIMPSE_ROOT", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import glimpse
    from glimpse import plot
except ImportError as e:
    sys.exit(f"plot.py: the glimpse Python package cannot be imported ({e}): run scripts/setup")

if __name__ == "__main__":
    glimpse.check_checkout()
    try:
        sys.exit(plot.main(sys.argv[1:]))
    except (FileNotFoundError, ValueError) as e:  # no run file, a damaged one: one line, not a traceback
        print(f"plot.py: {e}", file=sys.stderr)
        sys.exit(1)
