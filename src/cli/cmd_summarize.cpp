// glimpse summarize: one markdown table row per run file (progress, errors, speed, diagnostics);
// --status prints only new|partial|finished for one run (used by scripts/sweep). The errors are those
// of the evaluation with the lowest validation error (the first such): the run is selected on
// validation error only, and the test error reported is that evaluation's.
// --reach E adds time to accuracy: the training images and the wall time until the validation error
// first reached E percent: /eval/train_s, the run's wall time when that evaluation began (training steps
// and every earlier evaluation and checkpoint), and, where the file records evaluation time, that plus the
// evaluation itself (the wall time when the run knew it had reached E), the training products' TFLOP
// by then (images x the run's train_mflop_per_image), and that evaluation's test error:
// a validation curve that only grazes E on a plateau (each evaluation of 10,000 images varies by about
// +-0.1 points at 1%) shows there as a test error well above E. A curriculum's run (--init-from) adds
// what its earlier stages cost, whole, to its images, TFLOP and minutes (SourcesCost): the clock of a
// curriculum starts at its first stage.
#include <glob.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/core/error.h"
#include "src/core/stats.h"
#include "src/store/checkpoint.h"
#include "src/store/run_attributes.h"
#include "src/store/run_rules.h"
#include "src/store/writer_lock.h"
#include "src/train/run_config.h"

namespace glimpse::cli {
namespace {

// A diagnostic's mean for the table: "-" when the run recorded none (--diag-every 0).
std::string Diagnostic(double v, bool scientific) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream os;
  if (scientific)
    os << std::scientific << std::setprecision(2) << v;
  else
    os << std::fixed << std::setprecision(3) << v;
  return os.str();
}

double MeanOf(const std::vector<double>& v) {
  return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

std::string Percent(double f) {
  if (!std::isfinite(f)) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << 100 * f;
  return os.str();
}

// The options that make runs "the same configuration" (ConfigurationEntries, src/store/run_rules.h).
std::string ConfigurationKey(const ExperimentConfig& cfg) {
  std::string key;
  for (const auto& [k, v] : ConfigurationEntries(ToKeyValues(cfg))) key += k + "=" + v + "\n";
  return key;
}

std::string MeanStd(const SeedStats& s) {
  if (s.n < 2 || !std::isfinite(s.mean)) return Percent(s.mean);  // "-" for a hidden test error
  std::ostringstream os;
  os << Percent(s.mean) << " +- " << Percent(s.std);
  return os.str();
}

// The run files an argument names: a quoted glob as the files it matches (sorted); a file as given;
// otherwise an experiment NAME (frontier/mnist28):
// each full file results/NAME/ID.h5 and the committed slim copy results/NAME/runs/ID.h5 of each run
// whose full file is absent (a fresh clone holds only these), sorted by file name, as scripts/sweep's
// closing summary and glimpse.runs.experiment_paths read it. A name that finds nothing is an error.
std::vector<std::string> ExpandRuns(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (a.find_first_of("*?[") != std::string::npos && !fs::exists(a)) {  // a quoted glob
      glob_t g{};
      const int rc = glob(a.c_str(), 0, nullptr, &g);
      std::vector<std::string> found(g.gl_pathv, g.gl_pathv + (rc == 0 ? g.gl_pathc : 0));
      globfree(&g);
      Check(!found.empty(), "no run files match '", a, "'");
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
      continue;
    }
    if (fs::is_regular_file(a) || (a.size() > 3 && a.compare(a.size() - 3, 3, ".h5") == 0)) {
      out.push_back(a);  // a missing .h5 is reported by the reader, naming it
      continue;
    }
    const fs::path dir = fs::path("results") / a;
    std::map<std::string, std::string> by_name;  // file name -> path (a full file wins over its copy)
    for (const fs::path& d : {dir / "runs", dir}) {
      std::error_code ec;
      if (!fs::is_directory(d, ec)) continue;
      for (const auto& e : fs::directory_iterator(d, ec))
        if (e.is_regular_file() && e.path().extension() == ".h5")
          by_name[e.path().filename().string()] = e.path().string();
    }
    Check(!by_name.empty(), "'", a, "' is neither a run file nor an experiment with run files in ", dir.string(),
          " or ", (dir / "runs").string());
    for (const auto& [name, path] : by_name) out.push_back(path);
  }
  return out;
}

// What a run had cost when its evaluation e was made, from /eval's own columns: the images trained,
// train_s (its wall time when the evaluation began) and the evaluation's own seconds (eval_s is
// cumulative). `recorded` is false for a file of an older glimpse, which logs them only in /train.
struct EvalCost {
  bool recorded = false;
  double images = NAN, train_s = NAN, eval_s = NAN;
};

EvalCost EvalCostAt(const RunFile& f, std::size_t e) {
  const auto names = f.SeriesNames("/eval");
  EvalCost c;
  if (e >= f.SeriesLength("/eval") || std::find(names.begin(), names.end(), "train_s") == names.end()) return c;
  const auto eval_s = f.ReadSeries("/eval", "eval_s");
  c.recorded = true;
  c.images = f.ReadSeries("/eval", "images")[e], c.train_s = f.ReadSeries("/eval", "train_s")[e];
  c.eval_s = e > 0 ? eval_s[e] - eval_s[e - 1] : eval_s[e];
  return c;
}

// The training products' TFLOP of `images` of the run whose root attributes are `attrs` (NaN for a run
// made before its FLOPs per image were measured).
double TrainTflop(const std::map<std::string, std::string>& attrs, double images) {
  const auto mflop = attrs.find(kTrainMflopPerImage);
  return mflop == attrs.end() ? NAN : images * std::stod(mflop->second) / 1e6;
}

// What a curriculum's earlier stages cost: the --init-from source's whole run, and its own source's,
// back to the first stage: training images, seconds (training and evaluations: its last evaluation's
// train_s and that evaluation's own seconds; older files: the last /train wall_s) and training
// TFLOP (NaN when a stage did not record its FLOPs per image). A source that is not here, as named or
// as its committed copy (results/X/runs/ID.h5 of results/X/ID.h5), is an error: the cost would be wrong.
struct StagesCost {
  double images = 0, seconds = 0, tflop = 0;
  int stages = 0;
};

StagesCost SourcesCost(const std::string& run, std::string source) {
  namespace fs = std::filesystem;
  StagesCost c;
  for (; !source.empty() && c.stages < 16; ++c.stages) {
    const fs::path copy = fs::path(source).parent_path() / "runs" / fs::path(source).filename();
    Check(fs::exists(source) || fs::exists(copy), "--reach: '", run, "' starts from '", source,
          "' (--init-from), which is not here, nor its committed copy: its time to accuracy counts that stage");
    const RunFile f(fs::exists(source) ? source : copy.string(), RunFile::Mode::kReadOnly);
    const std::size_t n = f.SeriesLength("/eval");
    const EvalCost last = EvalCostAt(f, n > 0 ? n - 1 : 0);
    double img = 0, seconds = 0;
    if (last.recorded) {
      img = last.images, seconds = last.train_s + last.eval_s;
    } else if (f.SeriesLength("/train")) {
      img = f.ReadSeries("/train", "images").back(), seconds = f.ReadSeries("/train", "wall_s").back();
    }
    c.images += img, c.seconds += seconds, c.tflop += TrainTflop(f.Attributes("/"), img);
    source = ConfigFromRun(f).init_from;
  }
  return c;
}

}  // namespace

int RunSummarize(int argc, char** argv) {
  po::options_description desc("summarize options");
  desc.add_options()("help,h", "show this help")(
      "runs", po::value<std::vector<std::string>>()->multitoken()->required(),
      "run files, or experiment names (NAME: results/NAME/*.h5 and the committed copies in results/NAME/runs/)")(
      "status", "print only new|partial|finished (one run)")(
      "hide-test",
      "print '-' for every test error, pooled and per run (a row still running: its test error is read once, "
      "when the row has finished; the validation columns stay)")(
      "reach", po::value<double>(),
      "time to accuracy: also report the training images and wall time until the validation error first "
      "reached this percentage (e.g. 4.04)");
  po::positional_options_description pos;
  pos.add("runs", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(desc).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: glimpse summarize RUN.h5|EXPERIMENT [...] [--status] [--reach PERCENT] [--hide-test]\n\n"
              << desc << "\n";
    return 0;
  }
  po::notify(vm);
  // One file under two names (a link, "./a.h5") is one run: counted once, never pooled as two seeds.
  std::vector<std::string> runs;
  for (const std::string& p : ExpandRuns(vm["runs"].as<std::vector<std::string>>())) {
    std::error_code ec;
    const auto same = std::find_if(runs.begin(), runs.end(), [&](const std::string& q) {
      return RealPath(p) == RealPath(q) || std::filesystem::equivalent(p, q, ec);
    });
    if (same == runs.end())
      runs.push_back(p);
    else
      std::cerr << "glimpse summarize: '" << p << "' is the same file as '" << *same << "': counted once\n";
  }
  if (vm.count("status")) {
    Check(runs.size() == 1, "--status takes one run file");
    const RunFile f(runs[0], RunFile::Mode::kReadOnly);
    const ExperimentConfig cfg = ConfigFromRun(f);
    const std::int64_t done = EpochsDone(f);
    const bool stopped = f.Attributes("/").count(kStoppedAtTarget) > 0;  // --stop-at reached: finished
    std::cout << (done >= cfg.epochs || stopped ? "finished" : done > 0 ? "partial" : "new") << "\n";
    return 0;
  }
  const bool reach = vm.count("reach") > 0, hide_test = vm.count("hide-test") > 0;
  const double target = reach ? vm["reach"].as<double>() / 100 : 0;
  Check(!reach || (target > 0 && target < 1), "--reach: expected a validation error in percent, between 0 and 100");
  const std::string reach_head = reach ? Percent(target) + "%" : "";
  std::cout << "| run | epochs | best val error % (epoch) | its test error % (M=1) | last val / test % | images | "
               "images/s | grad var | grad SNR | parameters | other (best evaluation, %) |";
  if (reach)
    std::cout << " images to " << reach_head << " val | training TFLOP to it | test % then | train min to "
              << reach_head << " (earlier evaluations included) | wall min to the end of that evaluation |";
  std::cout << "\n|---|---|---|---|---|---|---|---|---|---|---|" << (reach ? "---|---|---|---|---|" : "") << "\n";
  // Runs that differ only in seed: each one's best evaluation (validation-selected), pooled below.
  std::map<std::string, std::vector<std::size_t>> groups;
  std::vector<double> best_val(runs.size(), NAN), best_test(runs.size(), NAN), rates(runs.size(), NAN),
      walls(runs.size(), NAN);
  std::vector<bool> finished(runs.size(), false);
  std::vector<double> reach_images(runs.size(), NAN), reach_min(runs.size(), NAN), reach_test(runs.size(), NAN);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string& path = runs[i];
    const RunFile f(path, RunFile::Mode::kReadOnly);
    const ExperimentConfig cfg = ConfigFromRun(f);
    const auto attrs = f.Attributes("/");  // read once: the parameters, the FLOPs, a reached target
    groups[ConfigurationKey(cfg)].push_back(i);
    const std::int64_t done = EpochsDone(f);
    auto test = f.SeriesLength("/eval") ? f.ReadSeries("/eval", "test_error") : std::vector<double>{};
    if (hide_test) std::fill(test.begin(), test.end(), NAN);  // Percent(NAN) prints "-"
    const auto val = f.SeriesLength("/eval") ? f.ReadSeries("/eval", "val_error") : std::vector<double>{};
    const auto images = f.SeriesLength("/train") ? f.ReadSeries("/train", "images") : std::vector<double>{};
    const auto wall = f.SeriesLength("/train") ? f.ReadSeries("/train", "wall_s") : std::vector<double>{};
    const auto gv = f.SeriesLength("/diagnostics") ? f.ReadSeries("/diagnostics", "grad_var") : std::vector<double>{};
    const auto snr = f.SeriesLength("/diagnostics") ? f.ReadSeries("/diagnostics", "grad_snr") : std::vector<double>{};
    const double n_img = images.empty() ? 0 : images.back();
    const double rate = wall.empty() || wall.back() <= 0 ? NAN : n_img / wall.back();
    rates[i] = rate, walls[i] = wall.empty() ? NAN : wall.back();
    finished[i] = done >= cfg.epochs || attrs.count(kStoppedAtTarget) > 0;
    const std::size_t best = SelectedEvaluation(val);  // val.size() when none
    const auto epochs = f.SeriesLength("/eval") ? f.ReadSeries("/eval", "epoch") : std::vector<double>{};
    std::cout << "| " << path << " | " << done << "/" << cfg.epochs << " | ";
    const bool selected = best < val.size();
    if (selected) best_val[i] = val[best], best_test[i] = test[best];
    if (!selected)
      std::cout << "- | - | - | ";
    else
      std::cout << Percent(val[best]) << " (" << static_cast<long>(epochs[best]) << ") | " << Percent(test[best])
                << " | " << Percent(val.back()) << " / " << Percent(test.back()) << " | ";
    std::cout << std::fixed << std::setprecision(0) << n_img << " | " << rate << " | " << Diagnostic(MeanOf(gv), true)
              << " | " << Diagnostic(MeanOf(snr), false) << " | "
              << (attrs.count("parameters") ? attrs.at("parameters") : std::string()) << " |";
    // Further metrics an agent logs (strip5: test_peak), as "name value".
    std::string other;
    if (selected)
      for (const auto& name : f.SeriesNames("/eval")) {
        if (name == "step" || name == "epoch" || name == "val_error" || name == "test_error" || name == "rss_mb" ||
            name == "images" || name == "train_s" || name == "eval_s" || name == "test_s")
          continue;
        const bool hidden = hide_test && name.rfind("test", 0) == 0;  // test_digit_error, test_peak, ...
        other += (other.empty() ? " " : ", ") + name + " " + Percent(hidden ? NAN : f.ReadSeries("/eval", name)[best]);
      }
    std::cout << other << " |";
    if (reach) {
      const auto hit = std::find_if(val.begin(), val.end(), [&](double v) { return v <= target; });
      if (hit == val.end()) {
        std::cout << " not reached | - | - | - | - |";
      } else {
        // The cost when that evaluation was made: /eval's own columns, or (older files) the /train row
        // logged at its step, which has no evaluation time.
        const std::size_t e = static_cast<std::size_t>(hit - val.begin());
        const EvalCost at = EvalCostAt(f, e);
        double img = at.images, train_s = at.train_s;
        if (!at.recorded && f.SeriesLength("/train")) {
          const auto steps = f.ReadSeries("/train", "step");
          const double step = f.ReadSeries("/eval", "step")[e];
          const auto row = std::find(steps.begin(), steps.end(), step);
          if (row != steps.end()) img = images[row - steps.begin()], train_s = wall[row - steps.begin()];
        }
        // The products' FLOPs of the images trained so far (runs made before it was measured: "-"), and
        // a curriculum's earlier stages added to the images, the FLOPs and the minutes.
        const double tf = TrainTflop(attrs, img);
        const StagesCost before = SourcesCost(path, cfg.init_from);
        img += before.images, train_s += before.seconds;
        reach_images[i] = img, reach_min[i] = train_s / 60;
        const auto names = f.SeriesNames("/eval");
        if (!hide_test && std::find(names.begin(), names.end(), "test_error") != names.end())  // a file may lack it
          reach_test[i] = f.ReadSeries("/eval", "test_error")[e];
        std::ostringstream tflop;
        if (std::isfinite(tf + before.tflop))
          tflop << std::fixed << std::setprecision(1) << tf + before.tflop;
        else
          tflop << "-";
        std::cout << " " << std::fixed << std::setprecision(0) << img << " (epoch " << static_cast<long>(epochs[e]);
        if (before.stages > 0)
          std::cout << "; " << before.images << " of them in " << before.stages << " earlier stage"
                    << (before.stages > 1 ? "s" : "");
        std::cout << ") | " << tflop.str() << " | " << Percent(reach_test[i]) << " | " << std::setprecision(1)
                  << train_s / 60 << " | ";
        if (std::isfinite(at.eval_s))
          std::cout << (train_s + at.eval_s) / 60;
        else
          std::cout << "-";
        std::cout << " |";
      }
    }
    std::cout << "\n";
  }
  bool pooled = false;
  for (const auto& [key, members] : groups) pooled = pooled || members.size() > 1;
  if (!pooled) return 0;
  const std::string reach_cols =
      reach ? " reached " + reach_head + " | images to it | test % then | train min to it |" : "";
  std::cout << "\nRuns that differ only in seed, pooled (each run's evaluation with the lowest validation "
               "error; mean +- sample std, and the 95% interval of the mean test error, Student's t; the test "
               "error's interquartile mean with its percentile bootstrap 95% interval over the seeds; training "
               "images per second and wall time (evaluations included), mean +- std; runs not finished are marked):\n\n"
               "| runs | n | best val error % | its test error % (M=1) | 95% interval of the test error % | "
               "test IQM % [bootstrap 95%] | images/s | wall time, min |"
            << reach_cols << "\n|---|---|---|---|---|---|---|---|" << (reach ? "---|---|---|---|" : "") << "\n";
  for (const auto& [key, members] : groups) {
    std::vector<double> v, t, r, w;
    std::string names;
    for (std::size_t i : members) {
      if (std::isfinite(best_val[i])) v.push_back(best_val[i]), t.push_back(best_test[i]);
      if (std::isfinite(rates[i])) r.push_back(rates[i]);
      if (std::isfinite(walls[i])) w.push_back(walls[i] / 60);
      names += (names.empty() ? "" : ", ") + runs[i] + (finished[i] ? "" : " (not finished)");
    }
    const SeedStats sv = Summarize(v), st = Summarize(t);
    std::cout << "| " << names << " | " << st.n << " | " << MeanStd(sv) << " | " << MeanStd(st) << " | ";
    if (st.n >= 2 && std::isfinite(st.mean))
      std::cout << "[" << Percent(st.mean - st.ci95) << ", " << Percent(st.mean + st.ci95) << "]";
    else
      std::cout << "-";
    std::cout << " | ";
    if (st.n >= 1 && std::isfinite(st.mean)) {  // every seed has a test error (screens have none)
      const Interval b = BootstrapInterval(t, Statistic::kIqm);
      std::cout << Percent(InterquartileMean(t)) << " [" << Percent(b.lo) << ", " << Percent(b.hi) << "]";
    } else {
      std::cout << "-";
    }
    const SeedStats sr = Summarize(r), sw = Summarize(w);
    std::cout << " | " << std::fixed << std::setprecision(0) << sr.mean;
    if (sr.n >= 2) std::cout << " +- " << sr.std;
    std::cout << " | " << std::setprecision(1) << sw.mean;
    if (sw.n >= 2) std::cout << " +- " << sw.std;
    std::cout << " |";
    if (reach) {  // over the seeds that reached it
      std::vector<double> ri, rm, rt;
      for (std::size_t i : members)
        if (std::isfinite(reach_images[i]))
          ri.push_back(reach_images[i]), rm.push_back(reach_min[i]), rt.push_back(reach_test[i]);
      const SeedStats si = Summarize(ri), sm = Summarize(rm), stt = Summarize(rt);
      std::cout << " " << ri.size() << " of " << members.size() << " | ";
      if (si.n == 0)
        std::cout << "- | - | - |";
      else {
        std::cout << std::setprecision(0) << si.mean;
        if (si.n >= 2) std::cout << " +- " << si.std;
        std::cout << " | " << MeanStd(stt) << " | " << std::setprecision(1) << sm.mean;
        if (sm.n >= 2) std::cout << " +- " << sm.std;
        std::cout << " |";
      }
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace glimpse::cli
