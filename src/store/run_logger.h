// Where a run's records go: a RunLogger over the run file (RunFileLogger), or none (NullLogger, for
// benchmarks and evaluation without a file). The trainer and the agents' examples write through it;
// checkpoints and resume use the RunFile itself (checkpoint.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/store/run_file.h"

namespace glimpse {

class RunLogger {
 public:
  using Row = std::vector<std::pair<std::string, double>>;
  using Shape = std::vector<std::size_t>;
  virtual ~RunLogger() = default;
  virtual bool recording() const = 0;  // false: every call below does nothing
  virtual void Attribute(const std::string& name, const std::string& value) = 0;  // on the root
  virtual void GroupAttribute(const std::string& group, const std::string& name, const std::string& value) = 0;
  virtual void Series(const std::string& group, const Row& row) = 0;  // one row of 1-D double series
  // A fixed array (its group is created when missing), and the next block along a growing first
  // dimension (an example logged once per evaluation).
  virtual void Array(const std::string& path, const Shape& shape, const float* data) = 0;
  virtual void Array(const std::string& path, const Shape& shape, const std::int32_t* data) = 0;
  virtual void Block(const std::string& path, const Shape& shape, const float* data) = 0;
  virtual void Block(const std::string& path, const Shape& shape, const std::int32_t* data) = 0;
  virtual void Block(const std::string& path, const Shape& shape, const std::int64_t* data) = 0;
  // Makes what was written so far the file on disk (RunFile::Commit).
  virtual void Commit() = 0;
};

class RunFileLogger : public RunLogger {
 public:
  explicit RunFileLogger(RunFile& file) : file_(file) {}
  bool recording() const override { return true; }
  void Attribute(const std::string& name, const std::string& value) override { file_.SetAttribute("/", name, value); }
  void GroupAttribute(const std::string& group, const std::string& name, const std::string& value) override {
    file_.CreateGroup(group);
    file_.SetAttribute(group, name, value);
  }
  void Series(const std::string& group, const Row& row) override { file_.Append(group, row); }
  void Array(const std::string& path, const Shape& shape, const float* data) override { Write(path, shape, data); }
  void Array(const std::string& path, const Shape& shape, const std::int32_t* data) override {
    Write(path, shape, data);
  }
  void Block(const std::string& path, const Shape& shape, const float* data) override {
    file_.AppendBlock(path, shape, data);
  }
  void Block(const std::string& path, const Shape& shape, const std::int32_t* data) override {
    file_.AppendBlock(path, shape, data);
  }
  void Block(const std::string& path, const Shape& shape, const std::int64_t* data) override {
    file_.AppendBlock(path, shape, data);
  }
  void Commit() override { file_.Commit(); }

 private:
  template <class T>
  void Write(const std::string& path, const Shape& shape, const T* data) {
    const auto slash = path.rfind('/');
    if (slash != std::string::npos && slash > 0) file_.CreateGroup(path.substr(0, slash));
    file_.WriteArray(path, shape, data);
  }
  RunFile& file_;
};

class NullLogger : public RunLogger {
 public:
  bool recording() const override { return false; }
  void Attribute(const std::string&, const std::string&) override {}
  void GroupAttribute(const std::string&, const std::string&, const std::string&) override {}
  void Series(const std::string&, const Row&) override {}
  void Array(const std::string&, const Shape&, const float*) override {}
  void Array(const std::string&, const Shape&, const std::int32_t*) override {}
  void Block(const std::string&, const Shape&, const float*) override {}
  void Block(const std::string&, const Shape&, const std::int32_t*) override {}
  void Block(const std::string&, const Shape&, const std::int64_t*) override {}
  void Commit() override {}
};

}  // namespace glimpse
