#include "src/model/core_network.h"

#include "src/model/lstm_core.h"
#include "src/model/rnn_core.h"

namespace glimpse {

template <class T>
std::unique_ptr<CoreNetwork<T>> MakeCore(const std::string& kind, ParamStore<T>& store,
                                         const std::string& name, int input, int hidden) {
  if (kind == "rnn") return std::make_unique<RnnCore<T>>(store, name, input, hidden);
  if (kind == "lstm") return std::make_unique<LstmCore<T>>(store, name, input, hidden);
  Fail("unknown core '", kind, "': expected rnn or lstm");
}

template std::unique_ptr<CoreNetwork<float>> MakeCore(const std::string&, ParamStore<float>&,
                                                      const std::string&, int, int);
template std::unique_ptr<CoreNetwork<double>> MakeCore(const std::string&, ParamStore<double>&,
                                                       const std::string&, int, int);

}  // namespace glimpse
