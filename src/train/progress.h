// The trainer's messages to a person: progress lines, epoch summaries, stops, roll-backs and where its
// parameters came from. The trainer composes each line and hands it here instead of printing it; the
// run file gets the numbers through the RunLogger (src/store/run_logger.h), this gets the words.
#pragma once

#include <iostream>
#include <string>

namespace glimpse {

class Progress {
 public:
  virtual ~Progress() = default;
  virtual void Line(const std::string& text) = 0;  // one line, without its newline
};

// glimpse train's terminal: each line as it comes, flushed (a log file follows the run).
class TerminalProgress : public Progress {
 public:
  void Line(const std::string& text) override { std::cout << text << "\n" << std::flush; }
};

// Library callers and tests that want no output.
class SilentProgress : public Progress {
 public:
  void Line(const std::string&) override {}
};

}  // namespace glimpse
