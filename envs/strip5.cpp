#include "envs/strip5.h"

#include <algorithm>
#include <memory>

#include "envs/tasks.h"
#include "src/core/error.h"
#include "src/core/rng.h"

namespace glimpse {
Strip5Task::Strip5Task(const DigitDataset& data, std::uint64_t seed) : data_(data), seed_(seed) {
  Check(data.train_images.rows == kDigit && data.train_images.cols == kDigit, "strip5 needs ", kDigit, "x", kDigit,
        " digits; '", data.train_images.path, "' holds ", data.train_images.rows, "x", data.train_images.cols);
  val_first_ = ValidationStart(data);
  const struct {
    Split split;
    const IdxLabels* labels;
    int first, last;
  } pools[] = {{Split::kTrain, &data.train_labels, 0, val_first_},
               {Split::kVal, &data.train_labels, val_first_, data.train_images.count},
               {Split::kTest, &data.test_labels, 0, data.test_images.count}};
  for (const auto& p : pools) {
    auto& by_class = pool_[static_cast<int>(p.split)];
    for (int i = p.first; i < p.last; ++i) by_class.at(p.labels->labels[i]).push_back(i);
    for (int c = 0; c < 10; ++c)
      Check(!by_class[c].empty(), "strip5: the ", SplitName(p.split), " split has no digit of class ", c);
  }
}

int Strip5Task::size(Split s) const { return SplitDigits(data_, s); }

StripSample Strip5Task::RenderStrip(Split split, std::int64_t index, std::int64_t epoch, float* out) const {
  using T = float;
  Check(index >= 0 && index < size(split), "strip index ", index, " outside the ", SplitName(split), " split of ",
        size(split));
  const std::uint64_t key = (static_cast<std::uint64_t>(split) << 62) ^
                            (static_cast<std::uint64_t>(split == Split::kTrain ? epoch : 0) << 32) ^
                            static_cast<std::uint64_t>(index);
  Rng rng(seed_ ^ (key * 0x9e3779b97f4a7c15ULL), "strip5");
  const auto& by_class = pool_[static_cast<int>(split)];
  StripSample s;
  s.query = static_cast<int>(rng.UniformInt(10));
  s.answer = rng.Bernoulli(0.5) ? static_cast<int>(rng.UniformInt(StripSample::kSlots)) : StripSample::kAbsent;
  const IdxImages& im = Images(split);
  const int W = width();
  for (int j = 0; j < StripSample::kSlots; ++j) {
    int c = s.query;
    if (j != s.answer) {  // one of the nine other classes
      c = static_cast<int>(rng.UniformInt(9));
      if (c >= s.query) ++c;
    }
    const auto& pool = by_class[c];
    const int digit = pool[rng.UniformInt(pool.size())];
    s.labels[j] = c;
    s.digits[j] = digit;
    const std::uint8_t* src = im.image(digit);
    for (int y = 0; y < kDigit; ++y)
      for (int x = 0; x < kDigit; ++x) out[y * W + j * kDigit + x] = static_cast<T>(src[y * kDigit + x]) / T(255);
  }
  return s;
}

int Strip5Task::classes() const { return StripSample::kAnswers; }

SampleInfo Strip5Task::Render(Split split, std::int64_t index, std::int64_t epoch, float* out) const {
  const StripSample s = RenderStrip(split, index, epoch, out);
  SampleInfo info;
  info.label = s.answer;
  info.query = s.query;
  info.digit = s.digits[0];
  if (s.answer != StripSample::kAbsent)  // the slot that holds the query (empty box: absent)
    info.box = Box{s.answer * kDigit, 0, (s.answer + 1) * kDigit, kDigit};
  return info;
}

TaskKind Strip5Kind() {
  TaskKind k;
  k.name = "strip5";
  k.help = "find the query digit among five slots; --attention soft|categorical";
  k.height = Strip5Task::kDigit;
  k.width = Strip5Task::kDigit * StripSample::kSlots;
  k.classes = StripSample::kAnswers;
  k.agent = "query";  // its model's options are checked by the query agent's kind (query_agent.cpp)
  k.query = true;
  k.make = [](const DigitDataset& data, std::uint64_t seed) { return std::make_unique<Strip5Task>(data, seed); };
  return k;
}

}  // namespace glimpse
