// glimpse render: a PNG grid of task samples, so a person can look at a task. Any registered task
// (envs/tasks.h): tiles of H x W pixels, as square a grid as the tiles' shape allows.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

#include "envs/png.h"
#include "envs/tasks.h"
#include "src/cli/commands.h"
#include "src/cli/config_options.h"
#include "src/core/error.h"

namespace glimpse::cli {

int RunRender(int argc, char** argv) {
  po::options_description desc("render options");
  desc.add_options()("help,h", "show this help")(
      "config", po::value<std::string>(), "INI file of experiment options (command-line values win)")(
      "count", po::value<int>()->default_value(16), "number of samples")(
      "split", po::value<std::string>()->default_value("train"), "train|val|test")(
      "out", po::value<std::string>()->required(), "PNG file to write")(
      "force", "overwrite an existing --out");
  po::variables_map vm;
  ExperimentConfig cfg;
  if (!ParseWithConfig(argc, argv, desc, "glimpse render --env NAME --count N --seed S --out FILE.png",
                       vm, cfg))
    return 0;
  const int count = vm["count"].as<int>();
  CheckRange(count, 1, 4096, "option --count");
  const std::string out = vm["out"].as<std::string>();
  Check(vm.count("force") || !std::ifstream(out), "'", out, "' exists; pass --force to overwrite it");
  const Split split = ParseSplit(vm["split"].as<std::string>());
  const TaskKind& kind = Tasks().Get(cfg.env);
  const DigitDataset data = LoadDigitDataset(ResolveDataDir(cfg));
  const std::unique_ptr<Task> task = kind.make(data, cfg.seed);

  // Grid of cols x rows tiles with a 2-pixel grey border.
  const int Ht = task->height(), Wt = task->width(), pad = 2;
  const int cols = std::max(1, static_cast<int>(std::lround(std::sqrt(count * static_cast<double>(Ht) / Wt))));
  const int rows = (count + cols - 1) / cols;
  const int W = cols * (Wt + pad) + pad, H = rows * (Ht + pad) + pad;
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(W) * H, 96);
  std::vector<float> img(static_cast<std::size_t>(task->pixels()));
  for (int i = 0; i < count; ++i) {
    const SampleInfo s = task->Render(split, i % task->size(split), 0, img.data());
    if (i == 0) std::cout << (s.query >= 0 ? "query:answer:" : "labels:");
    std::cout << " ";
    if (s.query >= 0) std::cout << s.query << ":";
    std::cout << s.label;
    const int ox = pad + (i % cols) * (Wt + pad), oy = pad + (i / cols) * (Ht + pad);
    for (int y = 0; y < Ht; ++y)
      for (int x = 0; x < Wt; ++x)
        pixels[static_cast<std::size_t>(oy + y) * W + ox + x] =
            static_cast<std::uint8_t>(std::lround(img[y * Wt + x] * 255.0f));
  }
  std::cout << "\n";
  WritePngGray(out, W, H, pixels);
  std::cout << "wrote " << out << " (" << count << " " << kind.name << " samples, " << W << "x" << H << ")\n";
  return 0;
}

}  // namespace glimpse::cli
