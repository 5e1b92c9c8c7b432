// glimpse render: a PNG grid of task samples, so a person can look at a task. Any registered task
// (envs/tasks.h): tiles of H x W pixels, as square a grid as the tiles' shape allows (envs/tile_sheet.h),
// enlarged --scale times, with each answer written under its tile with --labels. With --out
// FILE.npy it writes the samples themselves instead, float32 (count, H, W) exactly as the trainer
// renders them (samples start .. start + count - 1 of the split, for --epoch), and prints the labels.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

#include "envs/npy.h"
#include "envs/png.h"
#include "envs/tasks.h"
#include "envs/tile_sheet.h"
#include "envs/train_shift.h"
#include "src/cli/commands.h"
#include "src/cli/config_options.h"
#include "src/core/error.h"

namespace glimpse::cli {

int RunRender(int argc, char** argv) {
  po::options_description desc("render options");
  desc.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                 "INI file of experiment options (command-line values win)")(
      "count", po::value<int>()->default_value(16), "number of samples")(
      "start", po::value<std::int64_t>()->default_value(0), "index of the first sample in the split")(
      "epoch", po::value<std::int64_t>()->default_value(0), "training epoch (train samples differ by epoch)")(
      "split", po::value<std::string>()->default_value("train"), "train|val|test")(
      "out", po::value<std::string>()->required(), "PNG file to write, or FILE.npy: the samples as float32")(
      "scale", po::value<int>()->default_value(1), "PNG: enlarge the picture this many times (1..16)")(
      "labels", "PNG: write each sample's answer under it (strip5: query:answer)")("force",
                                                                                   "overwrite an existing --out");
  po::variables_map vm;
  ExperimentConfig cfg;
  if (!ParseWithConfig(argc, argv, desc, "glimpse render --env NAME --count N --seed S --out FILE.png|FILE.npy", vm,
                       cfg))
    return 0;
  const int count = vm["count"].as<int>();
  CheckRange(count, 1, 4096, "option --count");
  CheckRange(vm["scale"].as<int>(), 1, 16, "option --scale");
  const std::string out = vm["out"].as<std::string>();
  Check(vm.count("force") || !std::ifstream(out), "'", out, "' exists; pass --force to overwrite it");
  const Split split = ParseSplit(vm["split"].as<std::string>());
  const TaskKind& kind = Tasks().Get(cfg.env);
  ValidateTrainShift(cfg);
  const DigitDataset data = LoadDigitDataset(ResolveDataDir(cfg));
  const std::unique_ptr<Task> task = WithTrainShift(kind.make(data, cfg.seed), cfg.train_shift, cfg.seed);

  const int Ht = task->height(), Wt = task->width();
  const std::int64_t start = vm["start"].as<std::int64_t>(), epoch = vm["epoch"].as<std::int64_t>();
  const bool npy = out.size() > 4 && out.compare(out.size() - 4, 4, ".npy") == 0;
  Check(start >= 0 && (!npy || start + count <= task->size(split)), "option --start: samples ", start, "..",
        start + count - 1, " are outside the ", SplitName(split), " split of ", task->size(split));
  Check(epoch >= 0, "option --epoch: expected >= 0, found ", epoch);
  std::vector<float> images(static_cast<std::size_t>(count) * task->pixels());
  std::vector<SampleInfo> info(count);
  for (int i = 0; i < count; ++i)
    info[i] = task->Render(split, (start + i) % task->size(split), epoch,
                           images.data() + static_cast<std::size_t>(i) * task->pixels());
  if (npy) {
    WriteNpyFloat32(out,
                    {static_cast<std::size_t>(count), static_cast<std::size_t>(task->height()),
                     static_cast<std::size_t>(task->width())},
                    images.data());
    std::cout << "labels:";
    for (const SampleInfo& s : info) std::cout << " " << s.label;
    std::cout << "\nwrote " << out << " (" << count << " " << kind.name << " samples, float32)\n";
    return 0;
  }
  const TileSheet sheet = MakeTileSheet(images, info, Ht, Wt, vm.count("labels") > 0, vm["scale"].as<int>());
  std::cout << (info[0].query >= 0 ? "query:answer:" : "labels:");
  for (const SampleInfo& s : info) std::cout << " " << TileLabel(s);
  std::cout << "\n";
  WritePngGray(out, sheet.width, sheet.height, sheet.pixels);
  std::cout << "wrote " << out << " (" << count << " " << kind.name << " samples, " << sheet.width << "x"
            << sheet.height << ")\n";
  return 0;
}

}  // namespace glimpse::cli
