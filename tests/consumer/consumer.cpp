// Uses an installed glimpse: a registered task renders a cluttered60 sample and the retina reads a
// glimpse of it at the digit's box centre. Prints the label and the glimpse's mean; exits 1 if the
// glimpse saw no ink.
//   consumer DATA_DIR
#include <cstdio>
#include <vector>

#include "envs/tasks.h"
#include "src/attention/retina.h"

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: consumer DATA_DIR\n"), 2;
  const glimpse::DigitDataset data = glimpse::LoadDigitDataset(argv[1]);
  const auto task = glimpse::Tasks().Get("cluttered60").make(data, 1);
  std::vector<float> image(task->pixels());
  const glimpse::SampleInfo s = task->Render(glimpse::Split::kTest, 0, 0, image.data());
  // The box centre in the retina's units: [-1, 1] spans the canvas.
  const float loc[2] = {(s.box.x0 + s.box.x1) / 60.0f - 1, (s.box.y0 + s.box.y1) / 60.0f - 1};
  const glimpse::Retina<float> retina(8, 3);
  std::vector<float> g(retina.glimpse_size());
  retina.Read(image.data(), 1, task->height(), task->width(), loc, g.data(), nullptr);
  double mean = 0;
  for (float v : g) mean += v / g.size();
  std::printf("label=%d glimpse_mean=%.4f\n", s.label, mean);
  return mean > 0.01 ? 0 : 1;
}
