// glimpse._core: the C++ tasks and sensors for Python (pybind11), under python/glimpse/__init__.py.
//
// The tasks are the registered ones (envs/tasks.h) with the trainer's rendering, splits and seeds;
// a batch is rendered straight into the NumPy array returned (no copy). The sensors take and return
// float32 NumPy batches:
//   retina(images (B, H, W), loc (B, 2), patch, scales, unit_pixels) -> (B, k, g, g)
//   draw_read(images (B, H, W), params (B, 5), n, scales, sigma) -> (B, k, N, N)
//   stn_read(images (B, H, W), params (B, 6) affine or (B, 3) scale-translation, patch, scales,
//            sampler "box"|"bilinear") -> (B, k, g, g)
//   whole_canvas(images (B, H, W), patch, scales) -> (B, s, s)
// Errors: glimpse::Error becomes ValueError (bad names, shapes, ranges), with the C++ message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "envs/batch.h"
#include "envs/dataset.h"
#include "envs/tasks.h"
#include "src/attention/draw_read.h"
#include "src/attention/retina.h"
#include "src/attention/spatial_transformer.h"
#include "src/attention/whole_canvas.h"
#include "src/core/error.h"
#include "src/core/rng.h"

namespace py = pybind11;
using glimpse::Check;

void BindRunRules(py::module_& m);  // run_rules_module.cpp

namespace {

using Floats = py::array_t<float, py::array::c_style | py::array::forcecast>;

// One loaded data set per folder, shared by every Task over it (a task keeps its data alive).
std::shared_ptr<const glimpse::DigitDataset> LoadShared(const std::string& dir) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<const glimpse::DigitDataset>> loaded;
  std::lock_guard<std::mutex> lock(mu);
  if (auto d = loaded[dir].lock()) return d;
  auto d = std::make_shared<const glimpse::DigitDataset>(glimpse::LoadDigitDataset(dir));
  loaded[dir] = d;
  return d;
}

class PyTask {
 public:
  PyTask(const std::string& name, std::uint64_t seed, const std::string& data_dir)
      : kind_(glimpse::Tasks().Get(name)),
        seed_(seed),
        data_dir_(data_dir),
        data_(LoadShared(data_dir)),
        task_(kind_.make(*data_, seed)) {}

  const std::string& name() const { return kind_.name; }
  std::uint64_t seed() const { return seed_; }
  const std::string& data_dir() const { return data_dir_; }
  int height() const { return task_->height(); }
  int width() const { return task_->width(); }
  int classes() const { return kind_.classes; }
  int size(const std::string& split) const { return task_->size(glimpse::ParseSplit(split)); }

  // Samples start .. start + count - 1 of `split` (for `epoch`): images float32 (count, H, W),
  // labels int64 (count,), and with info the queries (count,), boxes (count, 4) as (x0, y0, x1, y1)
  // and source digit indices (count,); for every task also each digit's label, box and source index,
  // left to right: object_labels (count, 2), object_boxes (count, 2, 4), object_digits (count, 2),
  // the second entries -1 for a one-digit task.
  py::tuple Batch(const std::string& split_name, std::int64_t start, std::int64_t count, std::int64_t epoch,
                  bool info) const {
    const std::int64_t n = task_->size(glimpse::ParseSplit(split_name));
    Check(count >= 0 && start >= 0 && start <= n && count <= n - start, "samples ", start, " .. ", start, " + ", count,
          " - 1 are outside the ", split_name, " split of ", n, " samples");  // no overflow
    std::vector<std::int64_t> indices(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) indices[i] = start + i;
    return Render(split_name, indices, epoch, info);
  }

  // The samples of `split` at `indices` (any order, repeats allowed), as Batch.
  py::tuple Samples(const std::string& split_name,
                    py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> idx, std::int64_t epoch,
                    bool info) const {
    Check(idx.ndim() == 1, "indices: expected a 1-d array, found ", idx.ndim(), " dimensions");
    const std::int64_t n = task_->size(glimpse::ParseSplit(split_name));
    std::vector<std::int64_t> indices(idx.data(), idx.data() + idx.size());
    for (std::int64_t i : indices)
      Check(0 <= i && i < n, "index ", i, " is outside the ", split_name, " split of ", n, " samples");
    return Render(split_name, indices, epoch, info);
  }

  // Epoch e's order replays the shuffles of epochs 0..e (envs/batch.h), so it costs time in e; Ctrl-C
  // (or any pending Python signal) stops it with KeyboardInterrupt.
  py::array_t<std::int64_t> TrainOrder(std::int64_t epoch) const {
    Check(epoch >= 0 && epoch < (std::int64_t{1} << 20), "epoch: expected a value in [0, 2^20) (train --epochs ",
          "allows at most 2^20), found ", epoch);
    glimpse::Rng data(seed_, "data");
    std::vector<std::int64_t> order(static_cast<std::size_t>(task_->size(glimpse::Split::kTrain)));
    for (std::int64_t e = 0; e <= epoch; ++e) {
      glimpse::ShuffleEpoch(data, order);
      if (e % 64 == 63 && PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
    py::array_t<std::int64_t> a(static_cast<py::ssize_t>(order.size()));
    std::copy(order.begin(), order.end(), a.mutable_data());
    return a;
  }

 private:
  py::tuple Render(const std::string& split_name, const std::vector<std::int64_t>& indices, std::int64_t epoch,
                   bool info) const {
    const glimpse::Split split = glimpse::ParseSplit(split_name);
    Check(epoch >= 0, "epoch: expected >= 0, found ", epoch);
    const auto count = static_cast<py::ssize_t>(indices.size());
    py::array_t<float> images({count, static_cast<py::ssize_t>(height()), static_cast<py::ssize_t>(width())});
    py::array_t<std::int64_t> labels(count), queries(count), digits(count);
    py::array_t<std::int32_t> boxes({count, py::ssize_t{4}});
    py::array_t<std::int64_t> object_labels({count, py::ssize_t{2}}), object_digits({count, py::ssize_t{2}});
    py::array_t<std::int32_t> object_boxes({count, py::ssize_t{2}, py::ssize_t{4}});
    auto ol = object_labels.mutable_unchecked<2>(), od = object_digits.mutable_unchecked<2>();
    auto ob = object_boxes.mutable_unchecked<3>();
    float* out = images.mutable_data();
    auto l = labels.mutable_unchecked<1>(), q = queries.mutable_unchecked<1>(), d = digits.mutable_unchecked<1>();
    auto b = boxes.mutable_unchecked<2>();
    {
      py::gil_scoped_release release;
      for (py::ssize_t i = 0; i < count; ++i) {
        const glimpse::SampleInfo s = task_->Render(split, indices[i], epoch, out + i * task_->pixels());
        l(i) = s.label, q(i) = s.query, d(i) = s.digit;
        b(i, 0) = s.box.x0, b(i, 1) = s.box.y0, b(i, 2) = s.box.x1, b(i, 3) = s.box.y1;
        for (int o = 0; o < 2; ++o) {
          const bool has = o < s.objects;
          const glimpse::Box& x = s.boxes[o];
          ol(i, o) = has ? s.labels[o] : -1, od(i, o) = has ? (o == 0 ? s.digit : s.digit2) : -1;
          ob(i, o, 0) = has ? x.x0 : -1, ob(i, o, 1) = has ? x.y0 : -1, ob(i, o, 2) = has ? x.x1 : -1,
                   ob(i, o, 3) = has ? x.y1 : -1;
        }
      }
    }
    if (!info) return py::make_tuple(images, labels);
    py::dict extra;
    extra["query"] = queries, extra["box"] = boxes, extra["digit"] = digits;
    extra["object_labels"] = object_labels, extra["object_boxes"] = object_boxes,
    extra["object_digits"] = object_digits;
    return py::make_tuple(images, labels, extra);
  }

  const glimpse::TaskKind& kind_;
  std::uint64_t seed_;
  std::string data_dir_;
  std::shared_ptr<const glimpse::DigitDataset> data_;
  std::unique_ptr<glimpse::Task> task_;
};

// (B, H, W) float32 images, checked.
void CheckImages(const Floats& images) {
  Check(images.ndim() == 3, "images: expected a (B, H, W) array, found ", images.ndim(), " dimensions");
}

// A sensor's glimpses of a batch: params (B, P) -> (B, shape...).
template <class S>
py::array_t<float> ReadAll(const S& sensor, const Floats& images, const Floats& params,
                           std::vector<py::ssize_t> shape) {
  CheckImages(images);
  const int B = static_cast<int>(images.shape(0)), H = static_cast<int>(images.shape(1)),
            W = static_cast<int>(images.shape(2)), P = sensor.param_size();
  Check(params.ndim() == 2 && params.shape(0) == B && params.shape(1) == P, "read parameters: expected (", B, ", ", P,
        "), found an array of ", params.ndim(), " dimensions", params.ndim() == 2 ? " of another shape" : "");
  shape.insert(shape.begin(), B);
  py::array_t<float> out(shape);
  float* o = out.mutable_data();
  const float *x = images.data(), *p = params.data();
  {
    py::gil_scoped_release release;
    auto cache = sensor.MakeCache();
    sensor.Prepare(x, B, H, W, cache.get());
    sensor.Read(x, B, H, W, p, o, cache.get());
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "glimpse's C++ tasks, sensors and run-file rules (see the glimpse package)";
  py::register_exception_translator([](std::exception_ptr e) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const glimpse::Error& err) {
      PyErr_SetString(PyExc_ValueError, err.what());
    }
  });

  m.def(
      "task_names", [] { return glimpse::Tasks().Names(); }, "The registered task names, in registration order.");
  m.def("task_help", [] {
    std::map<std::string, std::string> h;
    for (const auto& k : glimpse::Tasks()) h[k.name] = k.help;
    return h;
  });

  py::class_<PyTask>(m, "Task")
      .def(py::init<const std::string&, std::uint64_t, const std::string&>(), py::arg("name"), py::arg("seed"),
           py::arg("data_dir"))
      .def_property_readonly("name", &PyTask::name)
      .def_property_readonly("seed", &PyTask::seed)
      .def_property_readonly("data_dir", &PyTask::data_dir)
      .def_property_readonly("height", &PyTask::height)
      .def_property_readonly("width", &PyTask::width)
      .def_property_readonly("classes", &PyTask::classes)
      .def("size", &PyTask::size, py::arg("split"))
      .def("batch", &PyTask::Batch, py::arg("split"), py::arg("start"), py::arg("count"), py::arg("epoch") = 0,
           py::arg("info") = false)
      .def("samples", &PyTask::Samples, py::arg("split"), py::arg("indices"), py::arg("epoch") = 0,
           py::arg("info") = false)
      .def("train_order", &PyTask::TrainOrder, py::arg("epoch"));

  m.def(
      "retina",
      [](const Floats& images, const Floats& loc, int patch, int scales, double unit_pixels) {
        const glimpse::Retina<float> r(patch, scales, unit_pixels);
        return ReadAll(r, images, loc, {scales, patch, patch});
      },
      py::arg("images"), py::arg("loc"), py::arg("patch") = 8, py::arg("scales") = 1, py::arg("unit_pixels") = 0.0);
  m.def(
      "draw_read",
      [](const Floats& images, const Floats& params, int n, int scales, double sigma) {
        const glimpse::DrawRead<float> r(n, sigma, scales);
        return ReadAll(r, images, params, {scales, n, n});
      },
      py::arg("images"), py::arg("params"), py::arg("n") = 12, py::arg("scales") = 1, py::arg("sigma") = 1.0);
  m.def(
      "draw_initial_params",
      [](int n, int scales, double sigma) { return glimpse::DrawRead<float>(n, sigma, scales).InitialParams(); },
      py::arg("n") = 12, py::arg("scales") = 1, py::arg("sigma") = 1.0);
  m.def(
      "stn_read",
      [](const Floats& images, const Floats& params, int patch, int scales, const std::string& sampler) {
        using STN = glimpse::SpatialTransformer<float>;
        Check(sampler == "box" || sampler == "bilinear", "sampler: expected box or bilinear, found '", sampler, "'");
        Check(params.ndim() == 2 && (params.shape(1) == 6 || params.shape(1) == 3),
              "read parameters: expected (B, 6) affine or (B, 3) scale-translation");
        const STN r(patch, scales, params.shape(1) == 6 ? STN::Mode::kAffine : STN::Mode::kScaleTranslation,
                    sampler == "box" ? STN::Sampler::kBox : STN::Sampler::kBilinear);
        return ReadAll(r, images, params, {scales, patch, patch});
      },
      py::arg("images"), py::arg("params"), py::arg("patch") = 12, py::arg("scales") = 1, py::arg("sampler") = "box");
  m.def(
      "whole_canvas",
      [](const Floats& images, int patch, int scales) {
        CheckImages(images);
        const glimpse::WholeCanvas<float> w(patch, scales, static_cast<int>(images.shape(1)),
                                            static_cast<int>(images.shape(2)));
        Floats loc(std::vector<py::ssize_t>{images.shape(0), 2});
        std::fill(loc.mutable_data(), loc.mutable_data() + loc.size(), 0.0f);
        return ReadAll(w, images, loc, {w.side(), w.side()});
      },
      py::arg("images"), py::arg("patch") = 8, py::arg("scales") = 1);
  BindRunRules(m);
}
