// The one interface behind which every attention mechanism reads an image.
//
// A sensor maps a batch of images (B, H, W) and read parameters (B, P) to glimpses (B, D). For the
// hard retina, P = 2 (a location in [-1, 1]^2, (x, y), (-1, -1) the top-left corner, (0, 0) the
// centre); differentiable sensors (DRAW, STN) have more read parameters and a Backward.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "src/core/params.h"
#include "src/core/rng.h"

namespace glimpse {

template <class T>
class Sensor {
 public:
  virtual ~Sensor() = default;
  virtual std::string name() const = 0;
  virtual int param_size() const = 0;    // P
  virtual int glimpse_size() const = 0;  // D
  // Called once per batch of images before its Reads (T of them per episode), so a sensor can
  // precompute per-image tables. Read must also be correct without it.
  virtual void Prepare(const T* /*images*/, int /*batch*/, int /*height*/, int /*width*/) const {}
  // images (B, H, W) row-major, params (B, P) -> glimpse (B, D). Overwrites glimpse.
  virtual void Read(const T* images, int batch, int height, int width, const T* params,
                    T* glimpse) const = 0;

  // Differentiable sensors (an attention kind without a policy: src/attention/attentions.h) learn
  // their read parameters by backpropagation: given dglimpse (B, D), Backward writes dparams (B, P)
  // and, if dimages is not null, adds the gradient with respect to the images (B, H, W) into it.
  // Sensors with learnable parameters of their own (soft attention's key projection) register
  // them in the model's store before it is allocated, and draw them in InitParams.
  virtual void RegisterParams(ParamStore<T>& /*store*/, const std::string& /*prefix*/) {}
  virtual void InitParams(Rng& /*rng*/) {}
  // Read parameters the read network should start from (its bias; weights start at zero), or empty.
  virtual std::vector<T> InitialParams() const { return {}; }
  virtual void Backward(const T* /*images*/, int /*batch*/, int /*height*/, int /*width*/,
                        const T* /*params*/, const T* /*dglimpse*/, T* /*dparams*/,
                        T* /*dimages*/) const {
    throw std::logic_error(name() + " is not differentiable: its read parameters are learned by REINFORCE");
  }
};

}  // namespace glimpse
