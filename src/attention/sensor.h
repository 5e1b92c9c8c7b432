// The one interface behind which every attention mechanism reads an image.
//
// A sensor maps a batch of images (B, H, W) and read parameters (B, P) to glimpses (B, D). For the
// hard retina, P = 2 (a location in [-1, 1]^2, (x, y), (-1, -1) the top-left corner, (0, 0) the
// centre); differentiable sensors (DRAW, STN) have more read parameters and a Backward.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/core/params.h"
#include "src/core/rng.h"

namespace glimpse {

// What a sensor keeps between the calls on one batch: tables it builds from the images (Prepare)
// and its scratch. The caller owns it (the model's rollout), so a sensor holds no state of its own
// and one sensor may serve several rollouts. Each sensor derives its own kind (see UseCache).
struct SensorCache {
  virtual ~SensorCache() = default;
};

// Noise on a differentiable read's parameters (Sensor::read_noise): z ~ N(0, 1) or Gumbel(0, 1).
struct ReadNoise {
  enum class Kind { kNone, kGaussian, kGumbel };
  Kind kind = Kind::kNone;
  double scale = 0;
  bool on() const { return kind != Kind::kNone && scale > 0; }
};

// What a training step tells every sensor before its reads, one value the trainer fills and the
// agent and model pass on whole (a sensor that needs a new per-step input adds a field here and reads
// it in SetInputs; nothing between the trainer and the sensor changes).
struct StepInputs {
  double progress = 0;  // training progress in [0, 1]: the updates done / the run's total
};

template <class T>
class Sensor {
 public:
  virtual ~Sensor() = default;
  virtual std::string name() const = 0;
  virtual int param_size() const = 0;    // P
  virtual int glimpse_size() const = 0;  // D
  // C of the glimpse's layout (B, C, S, S), D = C S S: the scales of a multi-scale read.
  virtual int glimpse_channels() const { return 1; }
  // A new, empty cache of this sensor's kind, or null when it needs none. Made once by the caller.
  virtual std::unique_ptr<SensorCache> MakeCache() const { return nullptr; }
  // Called once per batch of images before its Reads (T of them per episode): fills cache (from
  // MakeCache) with per-image tables. Read and Backward must also be correct without it, and with a
  // null cache (they then use a temporary one).
  virtual void Prepare(const T* /*images*/, int /*batch*/, int /*height*/, int /*width*/,
                       SensorCache* /*cache*/) const {}
  // images (B, H, W) row-major, params (B, P) -> glimpse (B, D). Overwrites glimpse.
  virtual void Read(const T* images, int batch, int height, int width, const T* params, T* glimpse,
                    SensorCache* cache) const = 0;

  // Differentiable sensors (an attention kind without a policy: src/attention/attentions.h) learn
  // their read parameters by backpropagation: given dglimpse (B, D), Backward writes dparams (B, P)
  // and, if dimages is not null, adds the gradient with respect to the images (B, H, W) into it.
  // Sensors with learnable parameters of their own (soft attention's key projection) register
  // them in the model's store before it is allocated, and draw them in InitParams.
  virtual void RegisterParams(ParamStore<T>& /*store*/, const std::string& /*prefix*/) {}
  virtual void InitParams(Rng& /*rng*/) {}
  // Read parameters the read network should start from (its bias; weights start at zero), or empty.
  virtual std::vector<T> InitialParams() const { return {}; }
  // The noise the model adds to the read parameters when it samples an episode (a reparameterised
  // read: read = p + scale z, the gradient passes through p unchanged); none at evaluation.
  virtual ReadNoise read_noise() const { return {}; }
  // The step's inputs (StepInputs), given before each forward pass, for a sensor with a schedule (the
  // Gumbel read's temperature): the only state a sensor may keep.
  virtual void SetInputs(const StepInputs& /*inputs*/) {}
  virtual void Backward(const T* /*images*/, int /*batch*/, int /*height*/, int /*width*/, const T* /*params*/,
                        const T* /*dglimpse*/, T* /*dparams*/, T* /*dimages*/, SensorCache* /*cache*/) const {
    throw std::logic_error(name() + " is not differentiable: its read parameters are learned by REINFORCE");
  }
};

// The sensor's own cache type C behind `cache`, or a temporary one in `local` when cache is null.
template <class C>
C& UseCache(SensorCache* cache, std::unique_ptr<SensorCache>& local) {
  if (cache == nullptr) local = std::make_unique<C>(), cache = local.get();
  return static_cast<C&>(*cache);
}

}  // namespace glimpse
