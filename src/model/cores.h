// The registered core networks of --core (core_network.h): h_t = f(g_t, h_{t-1}).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "src/core/registry.h"
#include "src/model/core_network.h"

namespace glimpse {

template <class T>
struct CoreKind : KindInfo {
  // A core with its parameters registered in store under `name`, input size I, state size H.
  std::function<std::unique_ptr<CoreNetwork<T>>(ParamStore<T>& store, const std::string& name, int input, int hidden)>
      make;
};

// The kind of a core whose constructor is Core(store, name, input, hidden).
template <class T, class Core>
CoreKind<T> MakeCoreKind(const char* name, const char* help) {
  CoreKind<T> k;
  k.name = name;
  k.help = help;
  k.make = [](ParamStore<T>& store, const std::string& prefix, int input, int hidden) {
    return std::make_unique<Core>(store, prefix, input, hidden);
  };
  return k;
}

// Every registered core: one declaration and one line each in cores.cpp.
// T: float (training) or double (checks).
template <class T>
const Registry<CoreKind<T>>& Cores();

}  // namespace glimpse
