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
  std::function<std::unique_ptr<CoreNetwork<T>>(ParamStore<T>& store, const std::string& name, int input,
                                                int hidden)>
      make;
};

// Every registered core: one declaration and one line each in cores.cpp.
// T: float (training) or double (checks).
template <class T>
const Registry<CoreKind<T>>& Cores();

}  // namespace glimpse
