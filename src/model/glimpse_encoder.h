// The glimpse network's image path (--glimpse-net): h_g = f(x), x (N, D) the sensor's glimpse of
// C channels of S x S pixels (D = C S S, layout (N, C, S, S): the retina's scales, the transformer's
// and DRAW's), h_g (N, Gh) after its ReLU. RAM's is one fully connected layer (fc_encoder.h); the
// rest of the glimpse network (the location path and the sum) is glimpse_network.h.
//
// An encoder keeps no state: what Backward needs from Forward lives in the caller's cache
// (cache_size() values per row of a rollout, CacheRows), and both use the caller's scratch
// (scratch_size() values, whatever N: an encoder with large intermediates works through the rows in
// fixed chunks). So one encoder serves several rollouts, and the training loop allocates nothing.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "src/core/params.h"
#include "src/core/registry.h"
#include "src/core/settings.h"
#include "src/core/tensor.h"

namespace glimpse {

// Rows [first, first + N) of an encoder's cache over a rollout's `total` rows (T N: every step's).
// The cache is layer-major: each matrix the encoder keeps, (total, width), after the one before, so
// cache_size() values a row in all. A pass over some of the rows (Forward runs one step, Backward all
// T N rows or one step) reads and writes each matrix's rows in place, as one contiguous block.
template <class P>  // T (Forward writes) or const T (Backward reads)
struct CacheRows {
  P* data;
  Index total, first;
  // The first of this pass's rows of the matrix that begins `offset` values into a row, `width` wide.
  P* at(Index offset, Index width) const { return data + total * offset + first * width; }
};

template <class T>
class GlimpseEncoder {
 public:
  virtual ~GlimpseEncoder() = default;
  // Registers the parameters under `prefix` (e.g. "glimpse") in the model's store before it is
  // allocated; Init draws them.
  virtual void RegisterParams(ParamStore<T>& store, const std::string& prefix) = 0;
  virtual void Init(Rng& rng) = 0;
  virtual int cache_size() const { return 0; }
  virtual std::size_t scratch_size() const { return 0; }
  // x (N, D) -> hg (N, Gh); writes the cache's rows.
  virtual void Forward(const T* x, int rows, T* hg, CacheRows<T> cache, T* scratch) const = 0;
  // dhg (N, Gh): the gradient at h_g (after the ReLU), consumed (overwritten). Accumulates the
  // parameter gradients; writes dx (N, D) when not null (differentiable sensors need it).
  virtual void Backward(const T* x, const T* hg, CacheRows<const T> cache, T* dhg, int rows, T* dx,
                        T* scratch) const = 0;
};

template <class T>
struct GlimpseEncoderKind : KindInfo {
  // The encoder of a glimpse of `channels` channels of side x side pixels into `hidden` units;
  // Error (naming the option) when this kind cannot read such a glimpse.
  std::function<std::unique_ptr<GlimpseEncoder<T>>(const Settings& s, int channels, int side, int hidden)> make;
};

// Every registered encoder: one declaration and one line each in glimpse_encoders.cpp.
// T: float (training) or double (checks).
template <class T>
const Registry<GlimpseEncoderKind<T>>& GlimpseEncoders();

}  // namespace glimpse
