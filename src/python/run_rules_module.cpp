// glimpse._core's run-file rules for glimpse.runs: the C++ that glimpse summarize, the trainer and
// glimpse verify apply (src/store/run_rules.h, src/store/file_checksum.h, src/core/stats.h), bound so
// that Python selects, pools, chooses checkpoints and checks checksums with the same code:
//   absent_option_values() -> {name: value}
//   configuration_entries({name: value}) -> {name: value} (the configuration key of a run's options)
//   selected_evaluation(val_errors) -> int (-1: none with a finite validation error)
//   chosen_checkpoint_slot([(name, complete, step)]) -> str ("" when none is complete)
//   seed_stats(values) -> {"n", "mean", "std", "ci95"} (NaN where undefined)
//   iqm(values) -> float; bootstrap_interval(values, statistic, strata, draws, seed, level) -> (lo, hi)
//   check_file_checksum(path, required=False) -> bool; reseal_file_checksum(path)
// Errors (a damaged file) are glimpse::Error, which the module turns into ValueError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "src/core/error.h"
#include "src/core/stats.h"
#include "src/store/file_checksum.h"
#include "src/store/run_rules.h"

namespace py = pybind11;

void BindRunRules(py::module_& m) {
  m.def("configuration_entries", &glimpse::ConfigurationEntries, py::arg("options"),
        "The configuration key of a run's options ({name: value} as strings): equal for seeds of one configuration.");
  m.def("absent_option_values", &glimpse::AbsentOptionValues,
        "The value of each option that run files written before it existed lack.");
  m.def(
      "selected_evaluation",
      [](const std::vector<double>& val) {
        const std::size_t i = glimpse::SelectedEvaluation(val);
        return i == val.size() ? -1 : static_cast<long>(i);
      },
      py::arg("val_errors"), "The first evaluation with the lowest finite validation error (-1: none).");
  m.def(
      "chosen_checkpoint_slot",
      [](const std::vector<std::tuple<std::string, bool, std::int64_t>>& slots) {
        std::vector<glimpse::CheckpointSlot> s;
        for (const auto& [name, complete, step] : slots) s.push_back({name, complete, step});
        return glimpse::ChosenCheckpointSlot(s);
      },
      py::arg("slots"), "The complete slot with the most steps, from (name, complete, step) tuples; \"\" if none.");
  m.def(
      "seed_stats",
      [](const std::vector<double>& values) {
        const glimpse::SeedStats s = glimpse::Summarize(values);
        return std::map<std::string, double>{{"n", s.n}, {"mean", s.mean}, {"std", s.std}, {"ci95", s.ci95}};
      },
      py::arg("values"), "n, mean, sample std and the 95% interval's half-width (Student's t) of the values.");
  m.def("iqm", &glimpse::InterquartileMean, py::arg("values"),
        "The mean of the values left after the lowest and the highest floor(n / 4) are cut (NaN: none).");
  m.def(
      "bootstrap_interval",
      [](const std::vector<double>& values, const std::string& statistic, const std::vector<int>& strata, int draws,
         std::uint64_t seed, double level) {
        glimpse::Check(statistic == "mean" || statistic == "iqm",
                       "bootstrap_interval: statistic 'mean' or 'iqm', found '", statistic, "'");
        const glimpse::Interval i = glimpse::BootstrapInterval(
            values, statistic == "iqm" ? glimpse::Statistic::kIqm : glimpse::Statistic::kMean, strata, draws, seed,
            level);
        return std::make_pair(i.lo, i.hi);
      },
      py::arg("values"), py::arg("statistic") = "mean", py::arg("strata") = std::vector<int>{},
      py::arg("draws") = 10000, py::arg("seed") = 0, py::arg("level") = 0.95,
      "The percentile bootstrap interval of the values' mean or iqm, resampling within each stratum (one "
      "integer label per value; empty: one stratum) from a seeded stream.");
  m.def("check_file_checksum", &glimpse::CheckFileChecksum, py::arg("path"), py::arg("required") = false,
        "True when the file's bytes match its trailer; False for an older file without one (unless "
        "required); ValueError naming the file otherwise.");
  m.def("reseal_file_checksum", &glimpse::ResealFileChecksum, py::arg("path"),
        "Replaces the file's trailer with one for its current bytes (after an edit with h5py).");
}
