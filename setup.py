"""The compiled part of the Python package, glimpse._core: pybind11 bindings of the tasks, sensors and
run-file rules (src/python/core_module.cpp, run_rules_module.cpp) with the few C++ sources they need, compiled with the flags the CMake
build uses, so a wheel renders samples byte for byte as `glimpse render` does. The rest of the
package's metadata is in pyproject.toml."""
import glob
import os

from setuptools import Extension, setup

ROOT = os.path.dirname(os.path.abspath(__file__))


def cpu_has(*flags):
    """Whether this machine's CPU has every flag (/proc/cpuinfo), as CMake's GLIMPSE_AVX2 decides."""
    try:
        with open("/proc/cpuinfo") as f:
            have = set(next(line for line in f if line.startswith("flags")).split())
    except (OSError, StopIteration):
        return False
    return all(flag in have for flag in flags)


sources = [
    "src/python/core_module.cpp",
    "src/python/run_rules_module.cpp",
    "src/core/rng.cpp",
    "src/core/blas.cpp",
    "src/store/file_checksum.cpp",
] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "envs", "*.cpp")))
flags = ["-std=c++17", "-O3", "-DNDEBUG", "-fno-math-errno", "-fvisibility=hidden"]
if os.environ.get("GLIMPSE_AVX2", "ON" if cpu_has("avx2", "fma") else "OFF") == "ON":
    flags += ["-mavx2", "-mfma"]

# setuptools' own folders go under the CMake build folder (git ignores it), not into the source tree.
work = os.path.join("build", "python-wheel")
os.makedirs(work, exist_ok=True)
setup(
    ext_modules=[
        Extension(
            "glimpse._core",
            sources=sources,
            include_dirs=[ROOT],
            language="c++",
            extra_compile_args=flags,
            libraries=["openblas", "png", "z"],
        )
    ],
    options={"build": {"build_base": work}, "egg_info": {"egg_base": work}},
)
