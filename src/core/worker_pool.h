// A fixed set of worker threads for fork-join data parallelism: Run(tasks, fn) calls fn(0) on the
// calling thread and fn(1) .. fn(tasks - 1) on the workers, and returns when all are done. The
// first exception thrown by any task is rethrown in the caller. Threads are started once, in the
// constructor, so Run allocates nothing; with one task Run simply calls fn(0).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "src/core/error.h"

namespace glimpse {

// `rows` rows split into contiguous shares, one per task of a WorkerPool::Run: SharesFor gives the
// number of shares (at most `parts`, each at least one row), and share s covers rows
// [ShareBegin(s, rows, shares), ShareBegin(s + 1, rows, shares)).
inline int SharesFor(int rows, int parts) { return std::max(1, std::min(parts, rows)); }
inline int ShareBegin(int s, int rows, int shares) {
  return static_cast<int>(static_cast<long long>(rows) * s / shares);
}

class WorkerPool {
 public:
  explicit WorkerPool(int workers) {
    CheckRange(workers, 0, 256, "worker threads");
    for (int w = 0; w < workers; ++w) threads_.emplace_back([this, w] { Loop(w + 1); });
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      generation_.fetch_add(1);
    }
    start_.notify_all();
    for (auto& t : threads_) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int workers() const { return static_cast<int>(threads_.size()); }

  // tasks in [1, workers() + 1].
  void Run(int tasks, const std::function<void(int)>& fn) {
    CheckRange(tasks, 1, workers() + 1, "parallel tasks");
    if (tasks == 1) return fn(0);
    {
      std::lock_guard<std::mutex> lock(mu_);
      fn_ = &fn;
      tasks_ = tasks;
      error_ = nullptr;
      pending_.store(tasks - 1);
      generation_.fetch_add(1);
    }
    start_.notify_all();
    std::exception_ptr mine;
    try {
      fn(0);
    } catch (...) {
      mine = std::current_exception();
    }
    if (!SpinUntil([this] { return pending_.load() == 0; })) {
      std::unique_lock<std::mutex> lock(mu_);
      done_.wait(lock, [this] { return pending_.load() == 0; });
    }
    std::lock_guard<std::mutex> lock(mu_);
    fn_ = nullptr;
    if (mine) std::rethrow_exception(mine);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // Waiting threads first spin for up to this long before sleeping: the steps of a training loop
  // come a fraction of a millisecond apart, and a sleeping thread takes longer than that to wake
  // on a virtual machine.
  static constexpr double kSpinSeconds = 0.5e-3;

  template <class Pred>
  static bool SpinUntil(Pred done) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(kSpinSeconds);
    for (int i = 1;; ++i) {
      if (done()) return true;
      if (i % 64 == 0 && std::chrono::steady_clock::now() > until) return false;
    }
  }

  void Loop(int id) {
    std::uint64_t seen = 0;
    for (;;) {
      if (!SpinUntil([&] { return generation_.load() != seen; })) {
        std::unique_lock<std::mutex> lock(mu_);
        start_.wait(lock, [&] { return generation_.load() != seen; });
      }
      const std::function<void(int)>* fn;
      {
        std::lock_guard<std::mutex> lock(mu_);
        seen = generation_.load();
        if (stop_) return;
        if (id >= tasks_) continue;  // not needed this round
        fn = fn_;
      }
      std::exception_ptr err;
      try {
        (*fn)(id);
      } catch (...) {
        err = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu_);
      if (err && !error_) error_ = err;
      if (pending_.fetch_sub(1) == 1) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable start_, done_;
  const std::function<void(int)>* fn_ = nullptr;
  int tasks_ = 0;
  std::atomic<int> pending_{0};
  std::atomic<std::uint64_t> generation_{0};
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace glimpse
