// glimpse bench: throughput measurements. Last line: images_per_s=F.
//   --what train:   training updates of the configured model (after one warm-up step)
//   --what env:     task generation, images/s for each registered task (last line: the slowest task)
//   --what sensors: microseconds per read of each registered attention's sensor, at four canvas sizes
#include <chrono>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

#include "envs/tasks.h"
#include "src/attention/attentions.h"
#include "src/cli/commands.h"
#include "src/cli/config_options.h"
#include "src/core/blas.h"
#include "src/core/error.h"
#include "src/core/rng.h"
#include "src/train/make_kinds.h"
#include "src/train/trainer.h"

namespace glimpse::cli {
namespace {

double Seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Renders `images` training images of the task in batches of B; returns images/s.
double BenchTask(const Task& task, int images, int batch) {
  std::vector<float> buf(static_cast<std::size_t>(batch) * task.pixels());
  const auto t0 = std::chrono::steady_clock::now();
  for (int done = 0; done < images; done += batch)
    for (int b = 0; b < batch; ++b)
      task.Render(Split::kTrain, (done + b) % task.size(Split::kTrain), 0,
                  buf.data() + static_cast<std::size_t>(b) * task.pixels());
  return images / Seconds(t0, std::chrono::steady_clock::now());
}

// Microseconds per read of a batch of B images, for the sensor of each registered attention (once
// per sensor: the hard attentions share the retina) and each canvas size; differentiable sensors
// also with their backward pass. Read parameters: the sensor's initial read plus uniform noise.
// Returns the first hard attention's images/s at canvas 60 (the RAM setting), bench's last line.
double BenchSensors(int batch, int patch) {
  double retina60 = 0;
  ExperimentConfig cfg;  // the sensors' settings: 3 retina scales; soft over 6 x 6, additive, size 64
  cfg.patch = patch, cfg.scales = 3, cfg.grid = 6, cfg.attention_dim = 64, cfg.score = "additive";
  std::cout << "us per read of " << batch << " images, glimpse " << patch << "x" << patch
            << " (read / read + backward)\n";
  std::cout << std::left << std::setw(24) << "attention (sensor)";
  for (int c : {28, 60, 100, 200}) std::cout << std::right << std::setw(22) << ("canvas " + std::to_string(c));
  std::cout << "\n";
  Rng rng(1, "bench");
  std::set<std::string> seen;
  for (const AttentionKind<float>& kind : Attentions<float>()) {
    cfg.attention = kind.name;
    const std::string name = MakeSensor(kind, cfg, 60, 60)->name();
    if (!seen.insert(name).second) continue;
    std::cout << std::left << std::setw(24) << (kind.name + " (" + name + ")");
    for (int C : {28, 60, 100, 200}) {
      // Made for each canvas: a sensor may be sized by its canvas (the whole-canvas view).
      const std::unique_ptr<Sensor<float>> sensor = MakeSensor(kind, cfg, C, C);
      ParamStore<float> store;  // a sensor's own parameters (soft attention's key projection)
      sensor->RegisterParams(store, "sensor");
      store.Allocate();
      Rng init(1, "init");
      sensor->InitParams(init);
      const std::unique_ptr<SensorCache> cache = sensor->MakeCache();  // as a rollout holds it
      std::vector<float> images(static_cast<std::size_t>(batch) * C * C), dimages(images.size());
      for (auto& v : images) v = static_cast<float>(rng.Uniform());
      const int P = sensor->param_size();
      const std::vector<float> start = sensor->InitialParams();
      std::vector<float> params(static_cast<std::size_t>(batch) * P),
          out(static_cast<std::size_t>(batch) * sensor->glimpse_size());
      for (std::size_t i = 0; i < params.size(); ++i)
        params[i] = static_cast<float>(rng.Uniform(-0.5, 0.5)) + (start.empty() ? 0.0f : start[i % P]);
      std::vector<float> dparams(params.size());
      const int reps = 20;
      auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < reps; ++r) {
        sensor->Prepare(images.data(), batch, C, C, cache.get());
        sensor->Read(images.data(), batch, C, C, params.data(), out.data(), cache.get());
      }
      const double read_us = 1e6 * Seconds(t0, std::chrono::steady_clock::now()) / reps;
      if (kind.hard() && C == 60 && retina60 == 0) retina60 = batch / (read_us * 1e-6);
      std::ostringstream cell;
      cell << std::fixed << std::setprecision(0) << read_us;
      if (!kind.hard()) {
        t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; ++r) {
          sensor->Read(images.data(), batch, C, C, params.data(), out.data(), cache.get());
          sensor->Backward(images.data(), batch, C, C, params.data(), out.data(), dparams.data(), dimages.data(),
                           cache.get());
        }
        cell << " / " << 1e6 * Seconds(t0, std::chrono::steady_clock::now()) / reps;
      }
      std::cout << std::right << std::setw(22) << cell.str();
    }
    std::cout << "\n";
  }
  return retina60;
}

// The BLAS floor of the profiled run: the model's products (FLOP per image, the rate each thread
// ran them at) against the sgemm rate of one large product on all `threads`; the floor is the
// images/s if the products ran at that peak and nothing else took time.
void PrintBlasFloor(const GemmStats& gemm, int steps, int batch, int threads, double rate) {
  if (gemm.calls == 0) return;
  const double flop_per_image = gemm.flops / (static_cast<double>(steps) * batch);
  const int was = GetBlasThreads();
  SetBlasThreads(threads);
  const double peak = MeasureSgemmPeak();
  SetBlasThreads(was);
  const double floor_rate = peak * 1e9 / flop_per_image;
  std::cout << std::fixed << std::setprecision(2) << "matrix products: " << flop_per_image / 1e6 << " MFLOP per image, "
            << gemm.calls / steps << " per step, " << std::setprecision(1) << gemm.flops / gemm.seconds / 1e9
            << " GFLOP/s per calling thread (" << was << " BLAS thread" << (was == 1 ? "" : "s") << " each)\n"
            << "sgemm peak (1024^3, " << threads << " threads): " << peak << " GFLOP/s; BLAS floor "
            << std::setprecision(0) << floor_rate << " images/s; this run " << std::setprecision(1)
            << 100 * rate / floor_rate << "% of it\n";
  // The shapes that take the most time, each with its own rate: which products sit below the peak.
  std::cout << "largest products (m x n x k, op = transposed operand; share of the products' time, rate):\n";
  for (std::size_t i = 0; i < gemm.shapes.size() && i < 6; ++i) {
    const GemmShape& s = gemm.shapes[i];
    std::cout << "  " << std::setw(4) << s.m << " x " << std::setw(4) << s.n << " x " << std::setw(4) << s.k
              << (s.trans_a ? " A^T" : "    ") << (s.trans_b ? " B^T" : "    ") << std::setprecision(1) << std::setw(6)
              << static_cast<double>(s.calls) / steps << "/step " << std::setw(5) << 100 * s.seconds / gemm.seconds
              << "% " << std::setw(6) << 2.0 * s.m * s.n * s.k * s.calls / s.seconds / 1e9 << " GFLOP/s\n";
  }
}

}  // namespace

int RunBench(int argc, char** argv) {
  po::options_description desc("bench options");
  desc.add_options()("help,h", "show this help")(
      "what", po::value<std::string>()->default_value("train"),
      "train: training images/s of the configured model; env: task generation speed; sensors: "
      "microseconds per read for each sensor and canvas size")("images", po::value<int>()->default_value(20000),
                                                               "images to process")(
      "profile", "train: also print the time per phase (task, sensor, forward, loss, backward, optimizer)")(
      "config", po::value<std::string>(), "INI file with experiment options");
  po::variables_map vm;
  ExperimentConfig cfg;
  if (!ParseWithConfig(argc, argv, desc, "glimpse bench [--what train|env|sensors] [--images N] [experiment options]",
                       vm, cfg))
    return 0;
  const std::string what = vm["what"].as<std::string>();
  const int images = vm["images"].as<int>();
  CheckRange(images, 1, 1 << 30, "option --images");
  Check(what == "env" || what == "train" || what == "sensors", "option --what: expected train, env or sensors, found '",
        what, "'");
  if (what == "sensors") {
    SetBlasThreads(cfg.threads > 0 ? cfg.threads : 1);
    const double rate = BenchSensors(cfg.batch, cfg.patch == 8 ? 12 : cfg.patch);
    std::cout << "retina reads on canvas 60\nimages_per_s=" << std::fixed << std::setprecision(0) << rate << "\n";
    return 0;
  }
  if (what == "train") {
    if (const std::string note = BlasKernelNote(); !note.empty()) std::cerr << "note: " << note << "\n";
    Trainer trainer(cfg, nullptr, false);
    const int steps = std::max(1, images / cfg.batch);
    Profile prof;
    const bool profile = vm.count("profile") > 0;
    // Products are accounted only in the profiled run, so the images/s of a plain bench carry no
    // timing overhead; with --profile the extra clock reads (about 1 us per product) are included.
    SetGemmAccounting(profile);
    const double rate = trainer.Bench(steps, profile ? &prof : nullptr);
    const GemmStats gemm = GetGemmStats();
    SetGemmAccounting(false);
    if (profile) {
      const double total = prof.task + prof.forward + prof.loss + prof.backward + prof.optimizer;
      auto line = [&](const char* name, double sec) {
        std::cout << "  " << std::left << std::setw(22) << name << std::right << std::fixed << std::setprecision(1)
                  << std::setw(8) << 1e3 * sec / steps << " ms/step " << std::setw(6) << 100 * sec / total << "%\n";
      };
      std::cout << "profile (" << steps << " steps, " << ResolvedThreads(cfg) << " threads, " << cfg.parallel
                << " parallel; forward and backward are wall time, the products' time is summed over threads):\n";
      line("task generation", prof.task);
      line("forward (all)", prof.forward);
      line("  of which sensor", prof.sensor);
      line("loss / estimator", prof.loss);
      line("backward", prof.backward);
      line("optimizer", prof.optimizer);
      line("matrix products (all)", gemm.seconds);
      PrintBlasFloor(gemm, steps, cfg.batch, ResolvedThreads(cfg), rate);
    }
    std::cout << cfg.env << ", --attention " << cfg.attention << ", " << cfg.glimpses << " glimpses of " << cfg.scales
              << " x " << cfg.patch << "x" << cfg.patch << ", batch " << cfg.batch << ", " << cfg.samples
              << " sample(s), core " << cfg.core << ", " << steps << " steps\n";
    std::cout << "images_per_s=" << std::fixed << std::setprecision(0) << rate << "\n";
    return 0;
  }
  const DigitDataset data = LoadDigitDataset(ResolveDataDir(cfg));
  double slowest = 0;
  for (const TaskKind& kind : Tasks()) {
    const std::string& name = kind.name;
    std::unique_ptr<Task> task;
    try {
      task = kind.make(data, cfg.seed);
    } catch (const Error& e) {  // a task this data set cannot feed (strip5 on a few test digits)
      std::cout << std::left << std::setw(14) << name << " skipped: " << e.what() << "\n";
      continue;
    }
    const double rate = BenchTask(*task, images, cfg.batch);
    const double us_per_batch = 1e6 * cfg.batch / rate;
    std::cout << std::left << std::setw(14) << name << " images_per_s=" << std::fixed << std::setprecision(0) << rate
              << "  (" << std::setprecision(1) << us_per_batch << " us per batch of " << cfg.batch << ")\n";
    slowest = slowest == 0 ? rate : std::min(slowest, rate);
  }
  std::cout << "images_per_s=" << std::fixed << std::setprecision(0) << slowest << "\n";
  return 0;
}

}  // namespace glimpse::cli
