// glimpse render: a PNG grid of task samples, so a person can look at a task.
#include <cmath>
#include <fstream>
#include <iostream>

#include "envs/image_task.h"
#include "envs/png.h"
#include "envs/strip5.h"
#include "src/cli/commands.h"
#include "src/cli/config_options.h"
#include "src/core/error.h"

namespace glimpse::cli {
namespace {

// strip5: one strip per row; a white bar under the slot that holds the query (none when absent).
void RenderStrips(const DigitDataset& data, const ExperimentConfig& cfg, Split split, int count,
                  const std::string& out) {
  const Strip5Task task(data, cfg.seed);
  const int pad = 2, bar = 3, Hs = task.height(), Ws = task.width();
  const int W = Ws + 2 * pad, H = count * (Hs + bar + pad) + pad;
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(W) * H, 96);
  std::vector<float> img(static_cast<std::size_t>(task.pixels()));
  std::cout << "query:answer (slot 0-4, or 'absent'):";
  for (int i = 0; i < count; ++i) {
    const StripSample s = task.Render(split, i % task.size(split), 0, img.data());
    std::cout << " " << s.query << ":" << (s.answer == StripSample::kAbsent ? "absent" : std::to_string(s.answer));
    const int oy = pad + i * (Hs + bar + pad);
    for (int y = 0; y < Hs + bar; ++y)
      for (int x = 0; x < Ws; ++x) {
        std::uint8_t v = 0;
        if (y < Hs) v = static_cast<std::uint8_t>(std::lround(img[y * Ws + x] * 255.0f));
        else if (s.answer != StripSample::kAbsent && x / Strip5Task::kDigit == s.answer && y > Hs) v = 255;
        pixels[static_cast<std::size_t>(oy + y) * W + pad + x] = v;
      }
  }
  std::cout << "\n";
  WritePngGray(out, W, H, pixels);
  std::cout << "wrote " << out << " (" << count << " strip5 samples, " << W << "x" << H << ")\n";
}

}  // namespace

int RunRender(int argc, char** argv) {
  po::options_description desc("render options");
  desc.add_options()("help,h", "show this help")(
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
  const DigitDataset data = LoadDigitDataset(ResolveDataDir(cfg));
  if (cfg.env == "strip5") {
    RenderStrips(data, cfg, split, count, out);
    return 0;
  }
  const ImageTask task(TaskByName(cfg.env), data, cfg.seed);

  // Grid of cols x rows tiles with a 2-pixel grey border.
  const int C = task.spec().canvas, pad = 2;
  const int cols = static_cast<int>(std::ceil(std::sqrt(count)));
  const int rows = (count + cols - 1) / cols;
  const int W = cols * (C + pad) + pad, H = rows * (C + pad) + pad;
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(W) * H, 96);
  std::vector<float> img(static_cast<std::size_t>(C) * C);
  std::cout << "labels:";
  for (int i = 0; i < count; ++i) {
    const SampleInfo s = task.Render(split, i % task.size(split), 0, img.data());
    std::cout << " " << s.label;
    const int ox = pad + (i % cols) * (C + pad), oy = pad + (i / cols) * (C + pad);
    for (int y = 0; y < C; ++y)
      for (int x = 0; x < C; ++x)
        pixels[static_cast<std::size_t>(oy + y) * W + ox + x] =
            static_cast<std::uint8_t>(std::lround(img[y * C + x] * 255.0f));
  }
  std::cout << "\n";
  WritePngGray(out, W, H, pixels);
  std::cout << "wrote " << out << " (" << count << " " << cfg.env << " samples, " << W << "x" << H
            << ")\n";
  return 0;
}

}  // namespace glimpse::cli
