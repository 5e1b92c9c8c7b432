// One flat parameter buffer with named views (llm.c's malloc_and_point_parameters).
//
// Layers Register() their tensors while the model is built; Allocate() then lays every tensor out in
// one contiguous buffer of values and one of gradients. The optimizer, the checkpoint and the
// gradient check are each one loop over these buffers.
#pragma once

#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/core/rng.h"
#include "src/core/tensor.h"

namespace glimpse {

using ParamId = int;

struct ParamInfo {
  std::string name;                // e.g. "glimpse.fc_g.W"
  std::vector<std::size_t> shape;  // e.g. {out, in}
  std::size_t offset = 0;          // into the flat buffers
  std::size_t size = 0;            // product of shape
};

template <class T>
class ParamStore {
 public:
  // Declares a tensor; returns its id. Only before Allocate().
  ParamId Register(const std::string& name, std::vector<std::size_t> shape) {
    Check(!allocated_, "ParamStore::Register(", name, ") after Allocate()");
    for (const auto& p : info_) Check(p.name != name, "duplicate parameter name '", name, "'");
    ParamInfo p;
    p.name = name;
    p.shape = std::move(shape);
    p.size = 1;
    for (auto d : p.shape) p.size *= d;
    p.offset = total_;
    total_ += p.size;
    info_.push_back(p);
    return static_cast<ParamId>(info_.size() - 1);
  }

  // Allocates the value and gradient buffers (zeroed).
  void Allocate() {
    Check(!allocated_, "ParamStore::Allocate() called twice");
    values_ = xt::zeros<T>({total_});
    grads_ = xt::zeros<T>({total_});
    allocated_ = true;
  }

  bool allocated() const { return allocated_; }
  std::size_t size() const { return total_; }
  const std::vector<ParamInfo>& info() const { return info_; }
  const ParamInfo& info(ParamId id) const { return info_.at(id); }

  T* value(ParamId id) { return values_.data() + info_[id].offset; }
  const T* value(ParamId id) const { return values_.data() + info_[id].offset; }
  T* grad(ParamId id) { return grads_.data() + info_[id].offset; }
  const T* grad(ParamId id) const { return grads_.data() + info_[id].offset; }

  Vec<T>& values() { return values_; }
  const Vec<T>& values() const { return values_; }
  Vec<T>& grads() { return grads_; }
  const Vec<T>& grads() const { return grads_; }

  void ZeroGrad() { std::fill(grads_.begin(), grads_.end(), T(0)); }

  ParamId Find(const std::string& name) const {
    for (std::size_t i = 0; i < info_.size(); ++i)
      if (info_[i].name == name) return static_cast<ParamId>(i);
    Fail("no parameter named '", name, "'");
  }

  // Fills a tensor with U(-scale, scale).
  void InitUniform(ParamId id, T scale, Rng& rng) {
    T* v = value(id);
    for (std::size_t i = 0; i < info_[id].size; ++i)
      v[i] = static_cast<T>(rng.Uniform(-static_cast<double>(scale), static_cast<double>(scale)));
  }
  void InitConstant(ParamId id, T c) {
    T* v = value(id);
    std::fill(v, v + info_[id].size, c);
  }

 private:
  std::vector<ParamInfo> info_;
  std::size_t total_ = 0;
  bool allocated_ = false;
  Vec<T> values_;
  Vec<T> grads_;
};

}  // namespace glimpse
